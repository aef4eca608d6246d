import type { Dirent } from "node:fs";
import path from "node:path";
import { WorkspacePathError } from "./workspace-path-error.js";
import type { OpenedEntry, WorkspaceRoot } from "./workspace-root.js";

/** Folders no walk descends into: the largest in most projects, and never what is looked for. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/**
 * How many directory entries (files and folders) a walk may still visit. The walk counts them
 * down; a walk that stops because none are left sets `stopped`, so the caller can say so.
 */
export interface WalkBudget {
  entries: number;
  stopped?: boolean;
}

/** Options of {@link walkFiles}. */
export interface WalkFilesOptions {
  /** Shared by the walks of one call, and counted down. */
  readonly budget: WalkBudget;
  /** The walk stops between entries once this is aborted. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Every regular file under the folder `start` (relative to the root, `""` for the root itself),
 * as a path relative to the root, depth first in name order, {@link SKIPPED_FOLDERS} left out.
 * Each folder is opened through `root` without following symlinks, and listed through its own
 * descriptor, so a folder swapped for a symlink after its parent was listed is skipped rather
 * than followed out of the working directory. Symlinks, FIFOs, sockets and devices are never
 * yielded, and the walk stops when `options.budget` runs out, so a huge tree cannot stall a tool.
 * Only `start` itself failing to open is an error (a `WorkspacePathError`).
 */
export async function* walkFiles(
  root: WorkspaceRoot,
  start: string,
  options: WalkFilesOptions,
): AsyncGenerator<string> {
  const { budget, signal } = options;
  const stack = [start];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const entries = await list(root, current, current === start);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const folders: string[] = [];
    for (const entry of entries) {
      if (signal?.aborted) return;
      if (budget.entries <= 0) {
        budget.stopped = true;
        return;
      }
      budget.entries--;
      const relative = path.join(current, entry.name);
      // Entry types come from the listing itself (no stat): a symlink is neither.
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(relative);
      } else if (entry.isFile()) {
        yield relative;
      }
    }
    // Pushed in reverse so the first folder is searched first.
    for (const folder of folders.reverse()) stack.push(folder);
  }
}

async function list(root: WorkspaceRoot, folder: string, first: boolean): Promise<Dirent[]> {
  let opened: OpenedEntry;
  try {
    opened = await root.open(folder === "" ? "." : folder, "folder", {
      field: ["path"],
      followSymlinks: false,
    });
  } catch (error) {
    // Gone, or no longer a plain folder, since its parent was listed: skip it. Only the
    // folder the caller asked for is an error.
    const raced = error instanceof WorkspacePathError && error.reason !== "TOOL_FAILED";
    if (first || !raced) throw error;
    return [];
  }
  try {
    return await root.list(opened);
  } finally {
    await opened.handle.close();
  }
}
