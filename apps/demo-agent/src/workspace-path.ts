import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { AgentError } from "./agent-error.js";

/** The longest path a tool accepts; anything longer is hostile or a mistake. */
export const MAX_PATH_LENGTH = 4096;

/**
 * Whether `candidate` is `root` or lies below it. Both must be absolute and normalized (real
 * paths, or `path.resolve` output): the check is lexical, on whole path segments, so a folder
 * named `..x` is inside and `/work-other` is not inside `/work`. A root of `/` holds everything.
 *
 * @example
 * ```ts
 * isInside("/tmp/ws", "/tmp/ws/..x/a.md"); // true
 * isInside("/tmp/ws", "/tmp/ws2");         // false
 * ```
 */
export function isInside(root: string, candidate: string): boolean {
  return (
    candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep)
  );
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Check that a tool's path argument is a usable path: a non-empty string, without NUL bytes, at
 * most {@link MAX_PATH_LENGTH} characters. Throws `INVALID_INPUT` naming `field`.
 */
export function checkPathInput(
  input: unknown,
  field: readonly (string | number)[],
): asserts input is string {
  const where = field.join(".");
  if (typeof input !== "string" || input.length === 0) {
    throw new AgentError("INVALID_INPUT", `${where}: expected a non-empty path`, { path: field });
  }
  if (input.includes("\0")) {
    throw new AgentError("INVALID_INPUT", `${where}: a path may not contain NUL bytes`, {
      path: field,
    });
  }
  if (input.length > MAX_PATH_LENGTH) {
    throw new AgentError(
      "INVALID_INPUT",
      `${where}: path is ${input.length} characters, the limit is ${MAX_PATH_LENGTH}`,
      { path: field },
    );
  }
}

/**
 * Resolve a path a tool was given against the session's working directory and refuse anything
 * that lands outside it: `..`, absolute paths elsewhere, and symlinks (anywhere along the path,
 * dangling ones included) that point out. Returns the real, absolute path (for a file that
 * does not exist yet: its real parent joined with the missing rest).
 *
 * The check is done on real paths because a lexical check alone is fooled by a symlink. It is
 * a check only: a folder on the path can be swapped for a symlink between it and a later open,
 * so the file tools open through `WorkspaceRoot`, which checks and opens in one walk.
 *
 * @example
 * ```ts
 * await resolveWorkspacePath("/tmp/ws", "notes.md");        // "/tmp/ws/notes.md"
 * await resolveWorkspacePath("/tmp/ws", "../etc/passwd");   // throws OUTSIDE_WORKSPACE
 * ```
 */
export async function resolveWorkspacePath(
  root: string,
  input: unknown,
  field: readonly (string | number)[] = ["file_path"],
): Promise<string> {
  const where = field.join(".");
  checkPathInput(input, field);
  const realRoot = await realpath(root);
  const candidate = path.resolve(realRoot, input);
  const outside = (why: string) =>
    new AgentError(
      "OUTSIDE_WORKSPACE",
      `${where}: ${JSON.stringify(input)} ${why}; tools may only touch files inside the working directory`,
      { path: field },
    );
  if (!isInside(realRoot, candidate)) throw outside("is outside the working directory");

  // Walk up to the nearest entry that exists and check where it really is.
  const missing: string[] = [];
  let probe = candidate;
  for (;;) {
    let real: string | undefined;
    try {
      real = await realpath(probe);
    } catch (error) {
      if (!isMissing(error)) throw AgentError.from(error, "TOOL_FAILED");
    }
    if (real !== undefined) {
      if (!isInside(realRoot, real)) throw outside("leads outside through a symlink");
      return path.join(real, ...missing);
    }
    // realpath failed: either nothing is there, or a symlink whose target is missing. Writing
    // through a dangling symlink would create its target, wherever that is.
    const link = await lstat(probe).catch(() => undefined);
    if (link?.isSymbolicLink()) throw outside("is a symlink to a missing target");
    missing.unshift(path.basename(probe));
    probe = path.dirname(probe);
  }
}
