import path from "node:path";

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
