import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** Refuse a file that is itself a symlink (`ELOOP` from the open). Default: follow it. */
  noFollow?: boolean;
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
      if (length > maxBytes)
        return { problem: `the file grew past the limit of ${maxBytes} bytes` };
    }
    return Buffer.concat(chunks, length).toString("utf8");
  } finally {
    await handle.close();
  }
}
