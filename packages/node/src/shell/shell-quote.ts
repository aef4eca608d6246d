import { HookError } from "@a3s-lab/hooks-core";
import type { Escaper, PlaceholderContext } from "@a3s-lab/hooks-core/internal";
import { AFTER, Unsupported } from "./shell-commands.js";
import { type ShellContext, scanPrefix, scanWhole } from "./shell-lexer.js";

export type { ShellContext } from "./shell-lexer.js";

/**
 * Scan shell source (the text before a placeholder) and say what quoting context its end is
 * in. The scanner follows POSIX `sh` and bash: `'…'`, `"…"`, backslashes, `$( … )` and
 * `( … )` nesting, `$"…"`, `${NAME}`, command names, redirections and separators. Where the
 * two shells disagree, or where quoting cannot keep a value from running, the context is
 * `unsupported` rather than guessed, because a wrong guess is a command injection:
 *
 * - right after a `\` or a `$`, which would pair with the value's first quote character
 * - backticks, `${x:-…}` expansions, arithmetic, here-documents, `$'…'`, `case`, `# comments`
 * - after what bash turns into other words or commands than sh: brace expansions (`{a,b}`,
 *   `{1..3}`), a glob pattern in a command name (`/bin/s[h]`), a word after `&>file`
 * - in a command name (the value would choose the program), after a command name made by an
 *   expansion (`$X`, which may be empty or `env`), in a variable assignment (`x={{v}}`,
 *   `x="$(… {{v}})"`), and in array assignments
 * - in the arguments of commands that evaluate them as code or variable names: `eval`, `let`,
 *   `[[ … ]]`, `source`, `trap`, `declare`, `export`, `read`, `unset`, …, `printf -v`, `[ -v`
 * - in the arguments of command runners (`sudo`, `env`, `nice`, `timeout`, `xargs`, …), except
 *   the words after a shell's literal `-c` code, which are `$0`, `$1`, …
 *
 * Every enclosing word counts, not only the innermost: in `eval "$(printf %s {{v}})"` the
 * value is printed and then evaluated. What the text after the placeholder does is
 * {@link checkShellTemplate}'s part.
 *
 * @example
 * ```ts
 * shellContextAt("echo '[$(date)] BASH: "); // { kind: "single" }
 * ```
 */
export function shellContextAt(source: string): ShellContext {
  return scanPrefix(source);
}

/**
 * Check a whole shell template that holds placeholders for what could evaluate a value after
 * the template stored it: a variable, `$1` (`set -- {{v}}`, `for x in {{v}}`) or a file can be
 * read back anywhere, and bash evaluates a variable's content as arithmetic (`$((x))`, `let`,
 * `[[ $x -eq 1 ]]`, `declare -i`, `${s:x}`), as a variable name with a subscript whose
 * `$( … )` runs (`${!x}`, `unset`, `read`, `printf -v`, `test -v`), or as code (`eval`,
 * `trap`, `source`, a shell reading stdin). None of those may appear anywhere in such a
 * template, nor the constructs the quoting lexer does not follow (backticks, here-documents,
 * `${x…}` with operators, `case`). {@link shellEscaper} sees only the text before each
 * placeholder, so a template rendered with it must pass this check too.
 *
 * Throws `TEMPLATE_ERROR` naming the first variable and what was found.
 *
 * @example
 * ```ts
 * checkShellTemplate("x={{tool_args.command}}; echo $((x + 1))"); // throws
 * ```
 */
export function checkShellTemplate(source: string): void {
  const variables = [...source.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)];
  if (variables.length === 0) return;
  try {
    // Each placeholder stands for a plain word here; its own spot is shellContextAt's part.
    scanWhole(source.replace(/\{\{[^{}]*\}\}/g, "_"));
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const name = variables[0]![1]!;
    const what = error.reason.startsWith(AFTER) ? error.reason.slice(AFTER.length) : error.reason;
    throw new HookError(
      "TEMPLATE_ERROR",
      `template: {{${name}}} cannot be used in a template that also has ${what}: a value stored in a variable, in $1 or in a file could reach it; ${SAFE_ALTERNATIVES}`,
      { details: { variable: name } },
    );
  }
}

/** What a refusal suggests instead: ways to hand a value to a hook that no shell reads as code. */
const SAFE_ALTERNATIVES =
  "pass the value another way: the exec form (`command` with `args`, each value one argument, after a literal `--`), the event's JSON on the hook's stdin, or an environment variable the hook reads";

function checkNul(value: string): void {
  if (value.includes("\0")) {
    throw new HookError(
      "TEMPLATE_ERROR",
      "shell value: contains a NUL byte, which no shell argument can hold",
    );
  }
}

/**
 * Quote one value as a single shell word (for a spot outside any quotes): `it's` → `'it'\''s'`.
 * Throws `TEMPLATE_ERROR` for a value that contains a NUL byte.
 *
 * @example
 * ```ts
 * `git add -- ${shellQuote(path)}`;
 * ```
 */
export function shellQuote(value: string): string {
  checkNul(value);
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** Quote a value for the given context. Throws `TEMPLATE_ERROR` for `unsupported` and for NUL. */
export function quoteForContext(value: string, context: ShellContext): string {
  switch (context.kind) {
    case "unquoted":
      return shellQuote(value);
    case "single":
      checkNul(value);
      return value.replaceAll("'", "'\\''");
    case "double":
      checkNul(value);
      return value.replace(/[\\"$`]/g, "\\$&");
    default:
      throw new HookError(
        "TEMPLATE_ERROR",
        `shell template: cannot quote a value safely for ${context.reason}`,
      );
  }
}

/**
 * An escaper for core's `renderTemplate` that quotes each value for the spot it sits in, so
 * the CLI-agent hooks specification's `'{{tool_args.command}}'` and `"…{{x}}…"` stay one literal string whatever the
 * value holds. Contexts are cached per prefix: a compiled template pays for the scan once.
 * It sees only the text before each placeholder: check the whole template once with
 * {@link checkShellTemplate} too (command hooks do both when they are created).
 *
 * @example
 * ```ts
 * renderTemplate("echo '{{message}}'", { message: "it's $(rm -rf ~)" }, shellEscaper);
 * // echo 'it'\''s $(rm -rf ~)'
 * ```
 */
export const shellEscaper: Escaper = (value, { name, prefix }: PlaceholderContext) => {
  const context = contextFor(prefix);
  if (context.kind === "unsupported") {
    throw new HookError(
      "TEMPLATE_ERROR",
      `template: {{${name}}} cannot be quoted safely: ${context.reason}; ${SAFE_ALTERNATIVES}`,
      { details: { variable: name } },
    );
  }
  return quoteForContext(value, context);
};

const cache = new Map<string, ShellContext>();
const CACHE_LIMIT = 512;

function contextFor(prefix: string): ShellContext {
  let context = cache.get(prefix);
  if (context === undefined) {
    context = shellContextAt(prefix);
    // Bounded: templates come from settings files, but a host could render endless new ones.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(prefix, context);
  }
  return context;
}
