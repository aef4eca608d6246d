import { readFile, stat } from "node:fs/promises";
import * as z from "zod";
import { ApprovalError } from "./approval-error.js";

/** One person who may decide in the inbox, and the token that proves it is them. */
export interface InboxDecider {
  /** The name decisions are recorded under; what a hook's `routing.deciders` names. */
  name: string;
  /** Their own bearer token (at least 16 characters); nobody else's. */
  token: string;
}

/** The shortest per-person token the inbox takes. */
const MIN_TOKEN = 16;

const decidersSchema = z
  .array(
    z.strictObject({
      name: z.string().min(1).max(256),
      token: z.string().min(MIN_TOKEN, `at least ${MIN_TOKEN} characters`).max(4096),
    }),
  )
  .min(1)
  .max(1000);

/**
 * Check a list of deciders: names and tokens present, each name and each token used once.
 * Throws `INVALID_INPUT` naming the field (`deciders[1].token`); the message never holds a
 * token.
 */
export function checkDeciders(value: unknown): InboxDecider[] {
  const parsed = decidersSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).filter((p) => typeof p !== "symbol") as (string | number)[];
    const field = path.reduce<string>(
      (text, p) => (typeof p === "number" ? `${text}[${p}]` : `${text}.${p}`),
      "deciders",
    );
    throw new ApprovalError("INVALID_INPUT", `${field}: ${issue?.message ?? "invalid"}`, {
      path: ["deciders", ...path],
    });
  }
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const [i, d] of parsed.data.entries()) {
    if (names.has(d.name)) {
      throw new ApprovalError("INVALID_INPUT", `deciders[${i}].name: ${d.name} is listed twice`, {
        path: ["deciders", i, "name"],
      });
    }
    if (tokens.has(d.token)) {
      throw new ApprovalError(
        "INVALID_INPUT",
        `deciders[${i}].token: the same token as an earlier decider's; each person needs their own`,
        { path: ["deciders", i, "token"] },
      );
    }
    names.add(d.name);
    tokens.add(d.token);
  }
  return parsed.data;
}

/**
 * Read a deciders file: a JSON array of `{ "name", "token" }`. Tokens live in a file, never in
 * argv (which other users of the machine can read). Resolves with the deciders and, when the
 * file is readable by other users, a warning to show.
 */
export async function readDecidersFile(
  file: string,
): Promise<{ deciders: InboxDecider[]; warning?: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new ApprovalError(
      "INVALID_INPUT",
      `deciders: cannot read ${file} (${(cause as Error).message})`,
      { path: ["deciders"] },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ApprovalError(
      "INVALID_INPUT",
      `deciders: ${file} is not JSON (${(cause as Error).message})`,
      { path: ["deciders"] },
    );
  }
  const deciders = checkDeciders(json);
  const mode = (await stat(file)).mode;
  const warning =
    process.platform !== "win32" && (mode & 0o077) !== 0
      ? `${file} holds tokens and other users can read it (mode ${(mode & 0o777).toString(8)}); chmod 600 it`
      : undefined;
  return warning === undefined ? { deciders } : { deciders, warning };
}
