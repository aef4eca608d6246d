/**
 * @a3s-lab/hooks-node/workspace: file access confined to one working directory, for an agent's
 * own file tools. The `agent` hook type's verifier reads a project through the same code.
 * `WorkspaceRoot` opens paths inside the root and refuses the rest (`..`, absolute paths,
 * symbolic links that leave it) with a `WorkspacePathError`; `walkFiles` lists a tree within a
 * budget; `readRegularFile` reads a file a repository may have planted (no FIFO, no device, a
 * size cap).
 *
 * @example
 * ```ts
 * import { WorkspaceRoot } from "@a3s-lab/hooks-node/workspace";
 * const root = await WorkspaceRoot.open(process.cwd());
 * ```
 */
export type { ReadRegularFileOptions } from "./workspace/read-regular-file.js";
export { readRegularFile } from "./workspace/read-regular-file.js";
export type { WalkBudget, WalkFilesOptions } from "./workspace/walk-files.js";
export { MAX_WALK_DEPTH, SKIPPED_FOLDERS, walkFiles } from "./workspace/walk-files.js";
export type { WorkspacePathReason } from "./workspace/workspace-path-error.js";
export { WorkspacePathError } from "./workspace/workspace-path-error.js";
export type {
  OpenedEntry,
  OpenIntent,
  OpenOptions,
  WorkspaceRootOptions,
} from "./workspace/workspace-root.js";
export { MAX_SYMLINK_HOPS, WorkspaceRoot } from "./workspace/workspace-root.js";
