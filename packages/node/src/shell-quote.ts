import { type Escaper, HookError, type PlaceholderContext } from "@a3s-lab/hooks-core";

/**
 * Where a placeholder sits in a shell command: outside quotes, inside `'…'`, or inside `"…"`
 * (at any depth of `$( … )` nesting), or somewhere no quoting can make a value safe.
 */
export type ShellContext =
  | { readonly kind: "unquoted" }
  | { readonly kind: "single" }
  | { readonly kind: "double" }
  | { readonly kind: "unsupported"; readonly reason: string };

type Frame = "top" | "cmd" | "paren" | "single" | "double" | "ansi" | "comment";

const UNQUOTED: ShellContext = Object.freeze({ kind: "unquoted" });
const SINGLE: ShellContext = Object.freeze({ kind: "single" });
const DOUBLE: ShellContext = Object.freeze({ kind: "double" });
const SIMPLE_PARAM = /\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])\}/y;
const WORD_BREAK = " \t\n;&|()<>";

function unsupported(reason: string): ShellContext {
  return { kind: "unsupported", reason };
}

/**
 * Scan shell source (the text before a placeholder) and say what quoting context its end is
 * in. The scanner follows POSIX `sh` and bash quoting: `'…'`, `"…"`, backslashes, `$( … )`
 * and `( … )` nesting, `$"…"`, `${NAME}`. Constructs whose quoting rules cannot be honoured
 * safely from the outside (backticks, `${x:-…}` expansions, arithmetic, here-documents,
 * `$'…'`, `case` patterns, `#` comments) make the context `unsupported` rather than guessed,
 * because a wrong guess is a command injection.
 *
 * @example
 * ```ts
 * shellContextAt("echo '[$(date)] BASH: "); // { kind: "single" }
 * ```
 */
export function shellContextAt(source: string): ShellContext {
  const stack: Frame[] = ["top"];
  let wordStart = true;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const frame = stack[stack.length - 1]!;
    switch (frame) {
      case "single":
        if (c === "'") stack.pop();
        continue;
      case "ansi":
        if (c === "\\") i++;
        else if (c === "'") stack.pop();
        continue;
      case "comment":
        if (c === "\n") {
          stack.pop();
          wordStart = true;
        }
        continue;
      case "double": {
        if (c === "\\") i++;
        else if (c === '"') stack.pop();
        else if (c === "`") return unsupported("a placeholder after a `…` command substitution");
        else if (c === "$") {
          const taint = dollar(source, i, stack);
          if (typeof taint === "string") return unsupported(taint);
          i = taint;
        }
        continue;
      }
      default: {
        // top, cmd and paren frames all follow the unquoted rules.
        if (c === "\\") {
          i++;
          wordStart = false;
        } else if (c === "'") {
          stack.push("single");
          wordStart = false;
        } else if (c === '"') {
          stack.push("double");
          wordStart = false;
        } else if (c === "`") {
          return unsupported("a placeholder after a `…` command substitution (use $( … ) instead)");
        } else if (c === "$") {
          const taint = dollar(source, i, stack);
          if (typeof taint === "string") return unsupported(taint);
          i = taint;
          wordStart = false;
        } else if (c === "#" && wordStart) {
          stack.push("comment");
        } else if (c === "(" && source[i + 1] === "(") {
          return unsupported("a placeholder after a (( … )) arithmetic command");
        } else if (c === "(") {
          stack.push("paren");
          wordStart = true;
        } else if (c === ")") {
          if (frame !== "top") stack.pop();
          wordStart = true;
        } else if (c === "<" && source[i + 1] === "<" && source[i + 2] !== "<") {
          return unsupported("a placeholder after a here-document (<<)");
        } else if (c === "<" && source[i + 1] === "<") {
          i += 2; // a here-string (<<<) is an ordinary word
          wordStart = true;
        } else if (
          wordStart &&
          source.startsWith("case", i) &&
          WORD_BREAK.includes(source[i + 4] ?? " ")
        ) {
          return unsupported("a placeholder after a `case` statement");
        } else {
          wordStart = WORD_BREAK.includes(c);
        }
      }
    }
  }
  switch (stack[stack.length - 1]) {
    case "single":
      return SINGLE;
    case "double":
      return DOUBLE;
    case "ansi":
      return unsupported("a placeholder inside $'…' quoting");
    case "comment":
      return unsupported("a placeholder inside a # comment");
    default:
      return UNQUOTED;
  }
}

/** Handle a `$` at `i`: push a frame or skip a simple expansion; a string means "unsupported". */
function dollar(source: string, i: number, stack: Frame[]): number | string {
  const next = source[i + 1];
  if (next === "(") {
    if (source[i + 2] === "(") return "a placeholder after a $(( … )) arithmetic expansion";
    stack.push("cmd");
    return i + 1;
  }
  if (next === "[") return "a placeholder after a $[ … ] arithmetic expansion";
  if (next === "{") {
    SIMPLE_PARAM.lastIndex = i;
    const m = SIMPLE_PARAM.exec(source);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
    if (!m) return "a placeholder after a ${…} expansion with operators";
    return i + m[0].length - 1;
  }
  if (next === "'" && stack[stack.length - 1] !== "double") {
    stack.push("ansi");
    return i + 1;
  }
  if (next === '"' && stack[stack.length - 1] !== "double") {
    stack.push("double");
    return i + 1;
  }
  return i;
}

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
 * seed 004's `'{{tool_args.command}}'` and `"…{{x}}…"` stay one literal string whatever the
 * value holds. Contexts are cached per prefix: a compiled template pays for the scan once.
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
      `template: {{${name}}} cannot be quoted safely: ${context.reason}`,
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
