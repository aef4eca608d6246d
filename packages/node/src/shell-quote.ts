import { HookError } from "@a3s-lab/hooks-core";
import type { Escaper, PlaceholderContext } from "@a3s-lab/hooks-core/internal";

/**
 * Where a placeholder sits in a shell command: outside quotes, inside `'…'`, or inside `"…"`
 * (at any depth of `$( … )` nesting), or somewhere no quoting can make a value safe.
 */
export type ShellContext =
  | { readonly kind: "unquoted" }
  | { readonly kind: "single" }
  | { readonly kind: "double" }
  | { readonly kind: "unsupported"; readonly reason: string };

const UNQUOTED: ShellContext = Object.freeze({ kind: "unquoted" });
const SINGLE: ShellContext = Object.freeze({ kind: "single" });
const DOUBLE: ShellContext = Object.freeze({ kind: "double" });
const SIMPLE_PARAM = /\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])\}/y;
const SPECIAL_PARAM = "$#?!@*-0123456789";
const BLANK = " \t";
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

/** Reserved words and prefixes after which the next word is still a command. */
const KEEPS_COMMAND = new Set(
  "if then else elif do while until ! { } time coproc exec command builtin nohup env nice sudo doas xargs setsid stdbuf".split(
    " ",
  ),
);
/**
 * Commands whose arguments the shell evaluates as code or as variable names (where bash runs
 * `a[$(…)]` subscripts): a quoted value is still run there.
 */
const CODE_ARGUMENTS = new Set("eval let [[ . source trap declare typeset local read".split(" "));
/**
 * Commands with an option whose argument is code or a variable name (`sh -c`, `printf -v`,
 * `[ -v`). For those that take options only before their first operand, a value there could
 * itself be that option, so a placeholder is refused until the first operand.
 */
const CODE_OPTIONS: Readonly<Record<string, { option: RegExp; leading: boolean }>> = {
  sh: { option: /^-[A-Za-z]*c[A-Za-z]*$/, leading: true },
  bash: { option: /^-[A-Za-z]*c[A-Za-z]*$/, leading: true },
  dash: { option: /^-[A-Za-z]*c[A-Za-z]*$/, leading: true },
  ksh: { option: /^-[A-Za-z]*c[A-Za-z]*$/, leading: true },
  zsh: { option: /^-[A-Za-z]*c[A-Za-z]*$/, leading: true },
  printf: { option: /^-v$/, leading: true },
  test: { option: /^-[vR]$/, leading: false },
  "[": { option: /^-[vR]$/, leading: false },
};

type Quote = "single" | "double" | "ansi" | "comment";

/** An unquoted nesting level: the whole command, a `$( … )` or `<( … )`, or a `( … )` subshell. */
interface Level {
  readonly kind: "top" | "cmd" | "paren";
  /** The next word starts a simple command: its name, an assignment or a reserved word. */
  atCommand: boolean;
  /** The next word is the target of a redirection; `dup` for `>&` and `<&`. */
  target: false | "file" | "dup";
  /** Where the current word started, or -1 between words. */
  word: number;
  /** What the current word is. */
  role: "command" | "argument" | "target" | "dup";
  /** The running simple command, when its arguments are code. */
  code: string | undefined;
  /** The running simple command's entry in {@link CODE_OPTIONS}. */
  options: (typeof CODE_OPTIONS)[string] | undefined;
  /** Where its arguments are: before the first operand, right after the code option, or past both. */
  phase: "options" | "code" | "rest";
}

type Frame = Level | Quote;

function level(kind: Level["kind"]): Level {
  return {
    kind,
    atCommand: true,
    target: false,
    word: -1,
    role: "command",
    code: undefined,
    options: undefined,
    phase: "rest",
  };
}

function unsupported(reason: string): ShellContext {
  return { kind: "unsupported", reason };
}

class Unsupported {
  constructor(readonly reason: string) {}
}

/** The text of a word with quote characters removed: `e'v'al` is still `eval`. */
function dequote(text: string): string {
  return text.replace(/['"\\]/g, "");
}

function startWord(l: Level, i: number): void {
  if (l.word !== -1) return;
  l.word = i;
  l.role = l.target === "dup" ? "dup" : l.target ? "target" : l.atCommand ? "command" : "argument";
  l.target = false;
}

/** The word that started at `l.word` ends at `end`. */
function endWord(l: Level, source: string, end: number): void {
  if (l.word === -1) return;
  const text = source.slice(l.word, end);
  const role = l.role;
  l.word = -1;
  if (role === "target" || role === "dup") return;
  // An fd number before a redirection (`2>`) is neither a command name nor an argument.
  if (/^\d+$/.test(text) && (source[end] === "<" || source[end] === ">")) return;
  if (role === "argument") {
    if (l.code === "[[" && text === "]]") l.code = undefined;
    if (l.options?.option.test(text) && (l.phase !== "rest" || !l.options.leading))
      l.phase = "code";
    else if (!(text.startsWith("-") && l.phase !== "rest")) l.phase = "rest";
    return;
  }
  if (ASSIGNMENT.test(text)) return;
  const name = dequote(text);
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (name === "case") throw new Unsupported("a placeholder after a `case` statement");
  // An expansion may be empty (the next word is the command) or name a prefix like `env`.
  if (KEEPS_COMMAND.has(name) || text.includes("$")) return;
  l.atCommand = false;
  if (CODE_ARGUMENTS.has(name)) l.code = name;
  l.options = Object.hasOwn(CODE_OPTIONS, base) ? CODE_OPTIONS[base] : undefined;
  l.phase = l.options?.leading ? "options" : "rest";
}

/** `;`, `&`, `|`, a newline: the next word starts a new command. */
function separate(l: Level, source: string, end: number): void {
  endWord(l, source, end);
  l.atCommand = true;
  l.target = false;
  l.options = undefined;
  l.phase = "rest";
  // Inside `[[ … ]]`, `&&` and `||` are operators of the test, not command separators.
  if (l.code !== "[[") l.code = undefined;
}

function innermostLevel(stack: readonly Frame[]): Level {
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i]!;
    if (typeof f !== "string") return f;
  }
  return stack[0] as Level;
}

/**
 * Scan shell source (the text before a placeholder) and say what quoting context its end is
 * in. The scanner follows POSIX `sh` and bash: `'…'`, `"…"`, backslashes, `$( … )` and
 * `( … )` nesting, `$"…"`, `${NAME}`, command names, redirections and separators. Where the
 * two shells disagree, or where quoting cannot keep a value from running, the context is
 * `unsupported` rather than guessed, because a wrong guess is a command injection:
 *
 * - right after a `\` or a `$`, which would pair with the value's first quote character
 * - backticks, `${x:-…}` expansions, arithmetic, here-documents, `$'…'`, `case`, `# comments`
 * - in a command name (the value would choose the program), including after `exec`, `env`,
 *   `sudo`, `xargs`, …, after a command name made by an expansion (`$X`, which may be empty or
 *   `env`), and in `a[…]=` assignments
 * - in the arguments of commands that evaluate them as code or variable names: `eval`, `let`,
 *   `[[ … ]]`, `source`, `trap`, `declare`, `local`, `read`, …, and `sh -c`
 *
 * @example
 * ```ts
 * shellContextAt("echo '[$(date)] BASH: "); // { kind: "single" }
 * ```
 */
export function shellContextAt(source: string): ShellContext {
  try {
    return scan(source);
  } catch (error) {
    if (error instanceof Unsupported) return unsupported(error.reason);
    throw error;
  }
}

function scan(source: string): ShellContext {
  const stack: Frame[] = [level("top")];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const frame = stack[stack.length - 1]!;
    switch (frame) {
      case "single":
        if (c === "'") stack.pop();
        continue;
      case "ansi":
        // dash reads `$'a\'` as `$` and the string `a\`; bash as an escaped quote.
        if (c === "\\")
          throw new Unsupported(
            "a placeholder after a $'…' string with a backslash (sh and bash read it differently)",
          );
        if (c === "'") stack.pop();
        continue;
      case "comment":
        if (c === "\n") {
          stack.pop();
          separate(innermostLevel(stack), source, i);
        }
        continue;
      case "double":
        if (c === "\\") i = escaped(source, i);
        else if (c === '"') stack.pop();
        else if (c === "`") throw new Unsupported("a placeholder after a `…` command substitution");
        else if (c === "$") i = dollar(source, i, stack);
        continue;
      default:
        i = unquoted(source, i, frame, stack);
    }
  }
  const frame = stack[stack.length - 1]!;
  if (frame === "ansi") return unsupported("a placeholder inside $'…' quoting");
  if (frame === "comment") return unsupported("a placeholder inside a # comment");
  const l = innermostLevel(stack);
  if (frame === l) startWord(l, source.length);
  if (l.role === "command" && !ASSIGNMENT.test(source.slice(l.word))) {
    return unsupported("a placeholder in a command name (the value would choose the program)");
  }
  if (l.role === "dup") {
    return unsupported("a placeholder after >& or <&, whose target bash expands twice");
  }
  if (l.code !== undefined && l.role !== "target") {
    return unsupported(`a placeholder in an argument of \`${l.code}\`, which runs it as code`);
  }
  if (l.role === "argument" && l.phase === "code") {
    return unsupported("a placeholder right after an option that runs its argument as code");
  }
  if (l.role === "argument" && l.phase === "options") {
    return unsupported("a placeholder where the value could be read as an option of the command");
  }
  return frame === "single" ? SINGLE : frame === "double" ? DOUBLE : UNQUOTED;
}

/** A backslash at `i`: skip what it escapes. At the very end it would escape the value. */
function escaped(source: string, i: number): number {
  if (i + 1 >= source.length) {
    throw new Unsupported(
      "a placeholder right after a backslash, which would escape the value's quoting",
    );
  }
  return i + 1;
}

/** One character at `i` outside quotes, in level `l`; returns the index of the last one used. */
function unquoted(source: string, i: number, l: Level, stack: Frame[]): number {
  const c = source[i]!;
  const next = source[i + 1];
  if (BLANK.includes(c)) {
    endWord(l, source, i);
    return i;
  }
  if (c === "\\" && next === "\n") return i + 1; // a line continuation is invisible
  if (c === "\n" || c === ";" || c === "&" || c === "|") {
    separate(l, source, i);
    return i;
  }
  if (c === "<" || c === ">") {
    if (c === "<" && next === "<" && source[i + 2] !== "<") {
      throw new Unsupported("a placeholder after a here-document (<<)");
    }
    if (next === "(") {
      // <( … ) and >( … ): a command substitution that is one word.
      startWord(l, i);
      stack.push(level("cmd"));
      return i + 1;
    }
    endWord(l, source, i);
    let j = i + 1;
    while (j < source.length && "<>&|".includes(source[j]!)) j++;
    l.target = source[i + 1] === "&" ? "dup" : "file";
    return j - 1;
  }
  if (c === "(") {
    if (next === "(") throw new Unsupported("a placeholder after a (( … )) arithmetic command");
    endWord(l, source, i);
    stack.push(level("paren"));
    return i;
  }
  if (c === ")") {
    endWord(l, source, i);
    if (l.kind === "top") {
      separate(l, source, i);
      return i;
    }
    stack.pop();
    const outer = innermostLevel(stack);
    // A subshell is done; what follows is a separator or a redirection, or a new command.
    if (l.kind === "paren") separate(outer, source, i);
    return i;
  }
  if (c === "#" && l.word === -1) {
    stack.push("comment");
    return i;
  }
  startWord(l, i);
  if (c === "\\") return escaped(source, i);
  if (c === "'") stack.push("single");
  else if (c === '"') stack.push("double");
  else if (c === "`") {
    throw new Unsupported("a placeholder after a `…` command substitution (use $( … ) instead)");
  } else if (c === "$") return dollar(source, i, stack);
  return i;
}

/** A `$` at `i`: push a frame or skip a simple expansion; returns the index of the last one used. */
function dollar(source: string, i: number, stack: Frame[]): number {
  const next = source[i + 1];
  const inDouble = stack[stack.length - 1] === "double";
  if (next === undefined) {
    throw new Unsupported(
      "a placeholder right after `$`, which would join the value to an expansion or quote",
    );
  }
  if (next === "(") {
    if (source[i + 2] === "(")
      throw new Unsupported("a placeholder after a $(( … )) arithmetic expansion");
    stack.push(level("cmd"));
    return i + 1;
  }
  if (next === "[") throw new Unsupported("a placeholder after a $[ … ] arithmetic expansion");
  if (next === "{") {
    SIMPLE_PARAM.lastIndex = i;
    const m = SIMPLE_PARAM.exec(source);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
    if (!m) throw new Unsupported("a placeholder after a ${…} expansion with operators");
    return i + m[0].length - 1;
  }
  if (next === "'" && !inDouble) {
    stack.push("ansi");
    return i + 1;
  }
  if (next === '"' && !inDouble) {
    stack.push("double");
    return i + 1;
  }
  if (SPECIAL_PARAM.includes(next)) return i + 1;
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
