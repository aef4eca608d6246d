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

function _isMissing(error: unknown): boolean {
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
