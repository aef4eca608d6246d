import { constants } from "node:fs";
import { type FileHandle, open, readlink, stat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** Refuse a file that is itself a symlink (`ELOOP` from the open). Default: follow it. */
  noFollow?: boolean;
  /**
   * The real path of a directory the opened file must lie in; `path` is then the file's real
   * path as the caller checked it. Judged by the descriptor (see `openedInside`), so a
   * parent directory swapped for a symlink between the caller's check and the open is refused
   * (`{ problem }`), and nothing is read.
   */
  inside?: string;
}

/** True when `path` is `dir` or lies under it (both absolute, neither needing resolution). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Whether the file `handle` has open lies in `dir`, asked of the descriptor rather than of a
 * name (`O_NOFOLLOW` guards only a path's last component). On Linux the kernel's own path of
 * the descriptor (`/proc/self/fd/<fd>`) must be inside `dir`. Elsewhere, or without `/proc`,
 * `checkedPath` must be inside `dir` and the descriptor must be the file (same `dev` and `ino`)
 * that `checkedPath` names now: weaker, since a parent directory swapped before the open and
 * still swapped when this check names the path again is not seen.
 */
export async function openedInside(
  handle: FileHandle,
  checkedPath: string,
  dir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  if (platform === "linux") {
    // readlink, not realpath: the link's text is the kernel's answer for the descriptor; a
    // realpath would resolve that text again by name, which is what a swap races.
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (opened !== undefined) return isAbsolute(opened) && isInside(dir, opened);
  }
  if (!isInside(dir, checkedPath)) return false;
  const [opened, named] = await Promise.all([
    handle.stat(),
    stat(checkedPath).catch(() => undefined),
  ]);
  return named !== undefined && opened.dev === named.dev && opened.ino === named.ino;
}

/**
 * A file's text, opened once and judged by its descriptor, or the problem that kept it from
 * being read: a repository can plant (or swap in, between a check by name and a read) a FIFO
 * or a device that would block a read forever. `O_NONBLOCK` keeps the open itself from waiting
 * for a FIFO's writer; the read stops one byte past the limit, so a file that grows after the
 * check is still refused. Errors of the open itself (`ENOENT`, `ELOOP`, …) are thrown.
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
  options: ReadRegularFileOptions = {},
): Promise<string | { problem: string }> {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = constants;
  const handle = await open(path, O_RDONLY | O_NONBLOCK | (options.noFollow ? O_NOFOLLOW : 0));
  try {
    if (options.inside !== undefined && !(await openedInside(handle, path, options.inside)))
      return { problem: "leads outside the allowed directory" };
    return await readOpenFile(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * The text of a file already opened (and judged) by the caller, or the problem that kept it
 * from being read: not a regular file, or more than `maxBytes` (checked before reading, and
 * again while reading, so a file that grows meanwhile is refused too). The caller closes `handle`.
 */
export async function readOpenFile(
  handle: FileHandle,
  maxBytes: number,
): Promise<string | { problem: string }> {
  const st = await handle.stat();
  if (!st.isFile()) return { problem: "not a regular file" };
  if (st.size > maxBytes) {
    return { problem: `the file is ${st.size} bytes; the limit is ${maxBytes}` };
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - length));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    length += bytesRead;
    if (length > maxBytes) return { problem: `the file grew past the limit of ${maxBytes} bytes` };
  }
  return Buffer.concat(chunks, length).toString("utf8");
}
