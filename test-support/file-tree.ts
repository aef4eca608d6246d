import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Write `files` (paths relative to the tree, text) into a new folder made inside `parent`, with
 * the folders their paths name; returns the new folder.
 */
export function writeFileTree(parent: string, files: Record<string, string>): string {
  const root = mkdtempSync(join(parent, "tree-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}
