import path from "node:path";
import { WorkspacePathError } from "./workspace-path-error.js";
import type { OpenedEntry, WorkspaceRoot } from "./workspace-root.js";

/** Folders no walk descends into: the largest in most projects, and never what is looked for. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/**
 * How many folders below the start a walk descends at most. Deeper folders are not opened (the
 * walk sets `tooDeep`), so a chain of nested folders cannot hold a walk for long however deep
 * it goes, and a path a walk yields stays short enough to open again.
 */
export const MAX_WALK_DEPTH = 64;

/**
 * How many directory entries (files and folders) a walk may still visit. The walk counts them
 * down; a walk that stops because none are left sets `stopped`, and one that left folders
 * deeper than {@link MAX_WALK_DEPTH} unopened sets `tooDeep`, so the caller can say so. A
 * folder is opened only after its entry was counted, so the budget bounds the opens too.
 */
export interface WalkBudget {
  /** Entries the walk may still visit; counted down as it goes. */
  entries: number;
  /** Set when the walk stopped because `entries` ran out. */
  stopped?: boolean;
  /** Set when the walk left folders deeper than {@link MAX_WALK_DEPTH} unopened. */
  tooDeep?: boolean;
}

/** Options of {@link walkFiles}. */
export interface WalkFilesOptions {
  /** Shared by the walks of one call, and counted down. */
  readonly budget: WalkBudget;
  /** The walk stops between entries once this is aborted. */
  readonly signal?: AbortSignal | undefined;
}

/** A folder the walk holds open, and its subfolders' names still to walk (the next one last). */
interface Level {
  readonly folder: OpenedEntry;
  readonly folders: string[];
}

const FIELD = ["path"];

/**
 * Every regular file under the folder `start` (relative to the root, `""` for the root itself),
 * as a path relative to the root, depth first in name order, {@link SKIPPED_FOLDERS} left out
 * and no deeper than {@link MAX_WALK_DEPTH} folders below `start`. `start` is opened through
 * `root`, and each folder below it through its parent's open descriptor, without following
 * symlinks (see {@link WorkspaceRoot.openFolderIn}), and listed through its own descriptor, so
 * a folder swapped for a symlink after its parent was listed is skipped rather than followed
 * out of the working directory, and each folder costs one open however deep it is. Symlinks,
 * FIFOs, sockets and devices are never yielded, and the walk stops when `options.budget` runs
 * out, so a huge tree cannot stall a tool. Only `start` itself failing to open is an error (a
 * `WorkspacePathError`).
 */
export async function* walkFiles(
  root: WorkspaceRoot,
  start: string,
  options: WalkFilesOptions,
): AsyncGenerator<string> {
  const { budget, signal } = options;
  // The open folders from `start` down to the one being walked: at most MAX_WALK_DEPTH + 1.
  const levels: Level[] = [];
  let next: OpenedEntry | undefined = await root.open(start === "" ? "." : start, "folder", {
    field: FIELD,
    followSymlinks: false,
  });
  try {
    while (next !== undefined || levels.length > 0) {
      if (next !== undefined) {
        const level: Level = { folder: next, folders: [] };
        levels.push(level);
        next = undefined;
        const entries = await root.list(level.folder);
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const deepest = levels.length > MAX_WALK_DEPTH;
        for (const entry of entries) {
          if (signal?.aborted) return;
          if (budget.entries <= 0) {
            budget.stopped = true;
            return;
          }
          budget.entries--;
          // Entry types come from the listing itself (no stat): a symlink is neither.
          if (entry.isDirectory()) {
            if (SKIPPED_FOLDERS.has(entry.name)) continue;
            if (deepest) budget.tooDeep = true;
            else level.folders.push(entry.name);
          } else if (entry.isFile()) {
            yield path.join(level.folder.relative, entry.name);
          }
        }
        // Reversed so that pop() takes the first folder first.
        level.folders.reverse();
        continue;
      }
      const level = levels[levels.length - 1]!;
      const name = level.folders.pop();
      if (name === undefined) {
        levels.pop();
        await level.folder.handle.close();
        continue;
      }
      if (signal?.aborted) return;
      next = await openChild(root, level.folder, name);
    }
  } finally {
    await next?.handle.close();
    for (const level of levels) await level.folder.handle.close();
  }
}

async function openChild(
  root: WorkspaceRoot,
  parent: OpenedEntry,
  name: string,
): Promise<OpenedEntry | undefined> {
  try {
    return await root.openFolderIn(parent, name, { field: FIELD });
  } catch (error) {
    // Gone, or no longer a plain folder, since its parent was listed: skip it.
    if (error instanceof WorkspacePathError && error.reason !== "TOOL_FAILED") return undefined;
    throw error;
  }
}
