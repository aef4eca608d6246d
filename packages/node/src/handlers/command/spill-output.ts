import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Characters of a hook's context text (`additionalContext`, `systemMessage`, plain stdout)
 * that reach the agent, as in Claude Code; past this the whole text goes to a file and the
 * agent gets a preview and the file's path.
 */
export const HOOK_OUTPUT_CAP = 10_000;
/** Characters of an over-cap text kept as its preview. */
export const HOOK_OUTPUT_PREVIEW = 2_000;

const FIELDS = ["additionalContext", "systemMessage"] as const;

let folder: Promise<string> | undefined;

/** One private folder per process (mode 0700, a fresh name), made when first needed. */
function spillFolder(): Promise<string> {
  folder ??= mkdtemp(join(tmpdir(), "a3s-hook-output-"));
  return folder;
}

/**
 * A command hook's answer with each of `additionalContext` and `systemMessage` longer than
 * {@link HOOK_OUTPUT_CAP} characters saved whole to a file (mode 0600) and replaced by its first
 * {@link HOOK_OUTPUT_PREVIEW} characters and the file's path, the way Claude Code handles
 * large hook output. When the file cannot be written, the text is cut at the cap and says so.
 * Anything else passes through as it is.
 */
export async function spillOversizedOutput(
  answer: unknown,
  ids: { eventId: string; hookId?: string | undefined },
  options: { folder?: () => Promise<string> } = {},
): Promise<unknown> {
  if (answer === null || typeof answer !== "object") return answer;
  const fields = answer as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const field of FIELDS) {
    const text = fields[field];
    if (typeof text !== "string" || text.length <= HOOK_OUTPUT_CAP) continue;
    out ??= { ...fields };
    const name = `${ids.eventId}-${ids.hookId ?? "hook"}-${field}.txt`.replace(/[^\w.-]/g, "_");
    try {
      const path = join(await (options.folder ?? spillFolder)(), name);
      await writeFile(path, text, { mode: 0o600, flag: "wx" });
      out[field] =
        `${text.slice(0, HOOK_OUTPUT_PREVIEW)}\n… [hook output of ${text.length} characters; the whole of it is in ${path}]`;
    } catch (error) {
      out[field] =
        `${text.slice(0, HOOK_OUTPUT_CAP)}\n… [hook output of ${text.length} characters cut at ${HOOK_OUTPUT_CAP}; it could not be saved: ${(error as Error).message}]`;
    }
  }
  return out ?? answer;
}
