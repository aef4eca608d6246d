import { describeValue } from "@a3s-lab/hooks-core/internal";
import { parseDocument } from "yaml";
import { emptySettings, type HookSettings } from "./hook-settings.js";
import { lineAndColumn } from "./json-text.js";
import { parseHooksBlock } from "./parse-hooks-block.js";

/** Options of `parseFrontmatterHooks`. */
export interface FrontmatterOptions {
  /**
   * Whether the file's hooks may run. Default true: the host vouches for the skills and
   * subagents it loads. Pass false for a file a cloned repository controls that the user has
   * not trusted.
   */
  trusted?: boolean;
}

/** The frontmatter of a file larger than this is refused (a skill's header is small). */
const MAX_FRONTMATTER = 256 * 1024;
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/**
 * Read the `hooks:` block of a markdown file's YAML frontmatter (the Rust-agent format's skills and
 * subagents), in the same shapes and with the same checks as a settings file. A file with no
 * frontmatter, or no `hooks:` in it, has no hooks and no problems.
 *
 * @example
 * ```ts
 * const settings = parseFrontmatterHooks(await readFile(skillPath, "utf8"), skillPath);
 * const handle = applyHookSettings(engine, settings); // while the skill is loaded
 * handle.unregister(); // on unload
 * ```
 */
export function parseFrontmatterHooks(
  markdown: string,
  source: string,
  options: FrontmatterOptions = {},
): HookSettings {
  const settings = emptySettings();
  const trusted = options.trusted ?? true;
  const info = {
    path: source,
    scope: "frontmatter" as const,
    exists: true,
    loaded: false,
    trusted,
    hooks: 0,
  };
  settings.files.push(info);
  const fail = (message: string, line?: number, column?: number) => {
    settings.problems.push({
      file: source,
      path: "",
      message,
      severity: "error",
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
    });
    return settings;
  };
  if (typeof markdown !== "string")
    return fail(`expected markdown text, got ${describeValue(markdown)}`);
  const opening = OPENING.exec(markdown);
  if (!opening) return settings;
  const rest = markdown.slice(opening[0].length, opening[0].length + MAX_FRONTMATTER + 8);
  const closing = CLOSING.exec(rest);
  if (!closing) {
    return fail(
      markdown.length - opening[0].length > MAX_FRONTMATTER
        ? `the frontmatter is not closed within ${MAX_FRONTMATTER} bytes`
        : 'the frontmatter is not closed by a "---" line',
    );
  }
  const yaml = rest.slice(0, closing.index);
  // uniqueKeys: a duplicated key is an error, not a silent override. Aliases are capped by toJS.
  const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const pos = lineAndColumn(yaml, error.pos[0]);
    // +1: the opening "---" is line 1 of the file.
    return fail(
      `invalid YAML frontmatter at line ${pos.line + 1}, column ${pos.column}: ${error.message}`,
      pos.line + 1,
      pos.column,
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return fail(`invalid YAML frontmatter: ${(e as Error).message}`);
  }
  info.loaded = true;
  if (data === null || data === undefined) return settings;
  if (typeof data !== "object" || Array.isArray(data)) {
    return fail(`expected the frontmatter to be a mapping, got ${describeValue(data)}`);
  }
  const hooks = (data as Record<string, unknown>).hooks;
  if (hooks === undefined) return settings;
  const block = parseHooksBlock(hooks, {
    file: source,
    scope: "frontmatter",
    trusted,
    basePath: ["hooks"],
  });
  settings.hooks = block.hooks;
  settings.problems.push(...block.problems);
  info.hooks = block.hooks.length;
  for (const [key, value] of Object.entries(block.options)) {
    (settings.options as Record<string, unknown>)[key] = value;
    (settings.optionSources as Record<string, string>)[key] = source;
  }
  return settings;
}
