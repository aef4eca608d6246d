import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { ToolContext } from "./tool.js";

/**
 * Replace a file's contents through a handle `WorkspaceRoot` opened and checked. The file is
 * emptied through the handle, never by name: `O_TRUNC` on the open would empty whatever the
 * name pointed to at that instant, before anything could check what was opened. Writes go to
 * explicit offsets, so a handle that was read first (Edit) is rewritten from the start.
 */
export async function writeFileSafely(handle: FileHandle, content: string): Promise<void> {
  const bytes = Buffer.from(content, "utf8");
  await handle.truncate(0);
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
}

/**
 * Run a file tool's `write` of `file` as the agent's own write (`ToolContext.ownWrite`), or just
 * run it where the context has no watch.
 */
export async function ownWrite(
  ctx: ToolContext,
  file: string,
  write: () => Promise<Stats>,
): Promise<void> {
  if (ctx.ownWrite) await ctx.ownWrite(file, write);
  else await write();
}
