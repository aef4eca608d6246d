import type { Dirent } from "node:fs";
import path from "node:path";
import { AgentError } from "../agent-error.js";
import type { OpenedEntry, WorkspaceRoot } from "../workspace-root.js";

/** Folders no search descends into. */
const SKIPPED = new Set([".git", "node_modules"]);

/** Entries (files and folders) a walk visits at most. */
const MAX_ENTRIES = 20_000;

/**
 * Every regular file under the folder `start` (relative to the root, `""` for the root itself),
 * as a path relative to the root, depth first in name order. Each folder is opened through
 * `root` without following symlinks, so a folder swapped for a symlink after it was listed is
 * skipped rather than followed out of the working directory. Symlinks, FIFOs, sockets and
 * devices are never yielded, and the walk is bounded so a huge tree cannot stall the agent.
 */
export async function* walkFiles(root: WorkspaceRoot, start: string): AsyncGenerator<string> {
  let budget = MAX_ENTRIES;
  const stack = [start];
  while (stack.length > 0 && budget > 0) {
    const current = stack.pop()!;
    const entries = await list(root, current, current === start);
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const folders: string[] = [];
    for (const entry of entries.reverse()) {
      if (--budget < 0) return;
      const relative = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) folders.push(relative);
      } else if (entry.isFile()) {
        yield relative;
      }
    }
    // Push in reverse so the first folder is searched first.
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
    const raced =
      AgentError.is(error, "NOT_FOUND") ||
      AgentError.is(error, "OUTSIDE_WORKSPACE") ||
      AgentError.is(error, "INVALID_INPUT");
    if (first || !raced) throw error;
    return [];
  }
  try {
    return await root.list(opened);
  } finally {
    await opened.handle.close();
  }
}
