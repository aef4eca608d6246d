import { opendir } from "node:fs/promises";
import path from "node:path";

/** Folders no search descends into. */
const SKIPPED = new Set([".git", "node_modules"]);

/** Entries (files and folders) a walk visits at most. */
const MAX_ENTRIES = 20_000;

/**
 * Every regular file under `dir`, as a path relative to `root`, depth first in name order.
 * Symlinks are never followed (so a search cannot leave the working directory through one),
 * and the walk is bounded so a huge tree cannot stall the agent.
 */
export async function* walkFiles(root: string, dir: string): AsyncGenerator<string> {
  let budget = MAX_ENTRIES;
  const stack = [dir];
  while (stack.length > 0 && budget > 0) {
    const current = stack.pop()!;
    const entries = [];
    for await (const entry of await opendir(current)) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const folders: string[] = [];
    for (const entry of entries.reverse()) {
      if (--budget < 0) return;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) folders.push(full);
      } else if (entry.isFile()) {
        yield path.relative(root, full);
      }
    }
    // Push in reverse so the first folder is searched first.
    for (const folder of folders.reverse()) stack.push(folder);
  }
}
