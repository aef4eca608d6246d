import path from "node:path";
import { readRegularFile } from "@a3s-lab/hooks-node/workspace";

/** The instructions files a session reads from its working directory, first found wins. */
export const INSTRUCTIONS_FILES = ["CLAUDE.md", "AGENTS.md"] as const;

/** Larger instructions files are not read (and the session is told why). */
export const INSTRUCTIONS_LIMIT = 64 * 1024;

/** An instructions file read, or one found that could not be. */
export type InstructionsFile = { file: string; text: string } | { file: string; problem: string };

/**
 * The working directory's instructions (CLAUDE.md, else AGENTS.md), read as hooks-node reads
 * settings files: one descriptor, a regular file, no symlink followed, at most
 * {@link INSTRUCTIONS_LIMIT} bytes. Undefined when there is none.
 */
export async function readInstructions(dir: string): Promise<InstructionsFile | undefined> {
  for (const name of INSTRUCTIONS_FILES) {
    const file = path.join(dir, name);
    let read: Awaited<ReturnType<typeof readRegularFile>>;
    try {
      read = await readRegularFile(file, INSTRUCTIONS_LIMIT, { noFollow: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      return { file, problem: code === "ELOOP" ? "a symbolic link" : (error as Error).message };
    }
    return typeof read === "string" ? { file, text: read } : { file, problem: read.problem };
  }
  return undefined;
}
