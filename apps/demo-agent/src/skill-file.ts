import path from "node:path";
import { readRegularFile } from "@a3s-lab/hooks-node/workspace";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { AgentError } from "./agent-error.js";

/** Skill files bigger than this are refused. */
export const SKILL_FILE_LIMIT = 256_000;

const frontmatterSchema = z.looseObject({
  name: z
    .string()
    .regex(/^[\w-]{1,100}$/, "a skill name is 1 to 100 letters, digits, _ and -")
    .optional(),
  description: z.string().max(2000).optional(),
  /** The frontmatter's `hooks:` block: event → [{ matcher, hooks: [{ type: command, command, timeout }] }]. */
  hooks: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The frontmatter block, as hooks-node's `parseFrontmatterHooks` reads it: an optional BOM,
 * `---` and a `---` or `...` line closing it, either may carry trailing spaces.
 */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n((?:[\s\S]*?\r?\n)?)(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** A skill as read from disk. */
export interface SkillFile {
  name: string;
  description?: string | undefined;
  /** The markdown after the frontmatter: the skill's instructions. */
  body: string;
  /** The frontmatter's `hooks:` block, unparsed (the hook loader validates it). */
  hooks?: Record<string, unknown> | undefined;
  /** The whole file, for loaders that parse frontmatter themselves. */
  source: string;
  path: string;
}

/**
 * Parse a skill: markdown with a YAML frontmatter block (`name`, `description`, `hooks`).
 * The name defaults to the file's (`careful-shell.md`, or `careful-shell/SKILL.md`).
 *
 * @example
 * ```ts
 * const skill = parseSkillFile("---\nname: careful\ndescription: No sudo\n---\nNever use sudo.", "careful.md");
 * skill.body; // "Never use sudo."
 * ```
 */
export function parseSkillFile(text: string, file: string): SkillFile {
  const fallbackName =
    path.basename(file) === "SKILL.md"
      ? path.basename(path.dirname(file))
      : path.basename(file, ".md");
  const match = FRONTMATTER.exec(text);
  let data: unknown = {};
  if (match) {
    try {
      data = parseYaml(match[1]!, { maxAliasCount: 50 }) ?? {};
    } catch (error) {
      throw new AgentError(
        "INVALID_INPUT",
        `${file}: frontmatter is not valid YAML: ${(error as Error).message}`,
        {
          cause: error,
          path: ["frontmatter"],
        },
      );
    }
  }
  const checked = frontmatterSchema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new AgentError(
      "INVALID_INPUT",
      `${file}: frontmatter.${issue.path.join(".") || "(root)"}: ${issue.message}`,
      { path: ["frontmatter", ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))] },
    );
  }
  return {
    name: checked.data.name ?? fallbackName,
    description: checked.data.description,
    body: (match ? text.slice(match[0].length) : text).trim(),
    hooks: checked.data.hooks,
    source: text,
    path: file,
  };
}

/**
 * Read and parse a skill file, refusing files that are not regular or too big. Read through
 * one descriptor (hooks-node's `readRegularFile`, as settings files are), so a FIFO cannot
 * hold a thread, and without following a symlink: a project's skill file must not pull another
 * file, say a key, into the model's context.
 */
export async function readSkillFile(file: string): Promise<SkillFile> {
  const text = await readRegularFile(file, SKILL_FILE_LIMIT, { noFollow: true }).catch(
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") {
        throw new AgentError(
          "INVALID_INPUT",
          `${file}: a symlink; skill files must be regular files`,
        );
      }
      throw AgentError.from(error, code === "ENOENT" ? "NOT_FOUND" : "TOOL_FAILED");
    },
  );
  if (typeof text !== "string") throw new AgentError("INVALID_INPUT", `${file}: ${text.problem}`);
  return parseSkillFile(text, file);
}
