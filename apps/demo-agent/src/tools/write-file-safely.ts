import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { AgentError } from "../agent-error.js";

/**
 * Write a file the confinement check already approved. `O_NOFOLLOW` closes the gap between
 * the check and the write: if a symlink appeared at the last component meanwhile, the open
 * fails instead of writing through it.
 */
export async function writeFileSafely(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o644).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new AgentError("OUTSIDE_WORKSPACE", `${file} became a symlink; refusing to write`, {
        cause: error,
      });
    }
    throw AgentError.from(error, "TOOL_FAILED");
  });
  try {
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}
