import { HookError } from "@a3s-lab/hooks-core";
import type { Escaper, PlaceholderContext } from "@a3s-lab/hooks-core/internal";
import {
  CODE_ARGUMENTS,
  DECLARES,
  EVALUATES,
  EVALUATING_DECLARE,
  KEEPS_COMMAND,
  PATH_FROM_VARIABLE,
  RUNNERS,
  SHELL_FLAGS,
  SHELL_OPTIONS_WITH_ARGUMENT,
  SHELL_SHORT_FLAGS,
  SHELLS,
  SPECIAL_VARIABLES,
} from "./shell-words.js";

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
const AFTER = "a placeholder after ";

/**
 * Commands with an option whose argument is code or a variable name (`printf -v`, `[ -v`). For
 * those that take options only before their first operand, a value there could itself be that
 * option, so a placeholder is refused until the first operand.
 */
const CODE_OPTIONS: Readonly<Record<string, { option: RegExp; leading: boolean }>> = {
  printf: { option: /^-v$/, leading: true },
  test: { option: /^-[vR]$/, leading: false },
  "[": { option: /^-[vR]$/, leading: false },
};

type Quote = "single" | "double" | "ansi" | "comment";

/**
 * A command runner's arguments, word by word. Only a shell's are followed: its options, then
 * its `-c` code or script, then `$0`, `$1`, … (`data`), where a placeholder is only data. Any
 * option the lexer does not know makes the rest `opaque`, refused like every other runner's.
 */
interface Runner {
  readonly name: string;
  phase: "options" | "option-argument" | "code" | "script" | "data" | "opaque";
  /** `-c` was given: the first operand is code. */
  code: boolean;
  /** `-s` was given: commands come from standard input. */
  stdin: boolean;
}

/** How far a scan looks: up to one placeholder, or the whole template. */
interface Scan {
  /**
   * The whole template is scanned for what could evaluate a stored value (arithmetic, `eval`,
   * subscripts, …): each one is refused, since a value may reach it through a variable.
   */
  readonly whole: boolean;
}

/** An unquoted nesting level: the whole command, a `$( … )` or `<( … )`, or a `( … )` subshell. */
interface Level {
  readonly kind: "top" | "cmd" | "paren";
  readonly scan: Scan;
  /** The next word starts a simple command: its name, an assignment or a reserved word. */
  atCommand: boolean;
  /** The next word is the target of a redirection; `dup` for `>&` and `<&`. */
  target: false | "file" | "dup";
  /** Where the current word started, or -1 between words. */
  word: number;
  /** What the current word is. */
  role: "command" | "argument" | "target" | "dup";
  /** The running simple command's name, once known. */
  command: string | undefined;
  /** The running simple command, when its arguments are code. */
  code: string | undefined;
  /** The running simple command's entry in {@link CODE_OPTIONS}. */
  options: (typeof CODE_OPTIONS)[string] | undefined;
  /** Where its arguments are: before the first operand, right after the code option, or past both. */
  phase: "options" | "code" | "rest";
  /** The running simple command, when it runs a command named in its arguments. */
  runner: Runner | undefined;
  /** Arguments of the running simple command so far. */
  argumentCount: number;
}

type Frame = Level | Quote;

function level(kind: Level["kind"], scan: Scan): Level {
  return {
    kind,
    scan,
    atCommand: true,
    target: false,
    word: -1,
    role: "command",
    command: undefined,
    code: undefined,
    options: undefined,
    phase: "rest",
    runner: undefined,
    argumentCount: 0,
  };
}

function unsupported(reason: string): ShellContext {
  return { kind: "unsupported", reason };
}

/**
 * Why no quoting makes a spot safe. Reasons start with "a placeholder after …" for constructs
 * the lexer cannot follow; a whole-template scan reports the construct alone.
 */
class Unsupported {
  constructor(readonly reason: string) {}
}

/** Found by a whole-template scan: something that could evaluate a value stored earlier. */
class Evaluates extends Unsupported {}

function evaluates(what: string): never {
  throw new Evaluates(what);
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
    argument(l, text);
    return;
  }
  if (ASSIGNMENT.test(text)) {
    if (l.scan.whole) checkAssignment(text);
    return;
  }
  const name = dequote(text);
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (name === "case") throw new Unsupported(`${AFTER}a \`case\` statement`);
  if (KEEPS_COMMAND.has(name)) return;
  if (text.includes("$")) {
    // An expansion may be empty (the next word is the command) or name a builtin like `eval`.
    if (l.scan.whole && !PATH_FROM_VARIABLE.test(text)) {
      evaluates("a command name made by an expansion, which could name `eval` or `let`");
    }
    return;
  }
  l.atCommand = false;
  l.command = base;
  l.argumentCount = 0;
  if (CODE_ARGUMENTS.has(name)) l.code = name;
  if (l.scan.whole && Object.hasOwn(EVALUATES, name)) {
    evaluates(`\`${name}\`, which evaluates ${EVALUATES[name]}`);
  }
  if (RUNNERS.has(base)) {
    l.runner = {
      name: base,
      phase: SHELLS.has(base) ? "options" : base === "npx" ? "script" : "opaque",
      code: false,
      stdin: false,
    };
  }
  l.options = Object.hasOwn(CODE_OPTIONS, base) ? CODE_OPTIONS[base] : undefined;
  l.phase = l.options?.leading ? "options" : "rest";
}

/** An argument of the running simple command ends. */
function argument(l: Level, text: string): void {
  if (text === "{") {
    // `function f {` and `coproc NAME {`: a body whose first word is a command.
    endCommand(l);
    l.atCommand = true;
    l.code = undefined;
    l.options = undefined;
    l.phase = "rest";
    return;
  }
  l.argumentCount++;
  if (l.code === "[[" && text === "]]") l.code = undefined;
  if (l.options?.option.test(text) && (l.phase !== "rest" || !l.options.leading)) l.phase = "code";
  else if (!(text.startsWith("-") && l.phase !== "rest")) l.phase = "rest";
  if (l.runner) runnerArgument(l.runner, text, l.scan);
  if (l.scan.whole) checkArgument(l, text);
}

/** Follow a shell's options to its code, script and data (see {@link Runner}). */
function runnerArgument(r: Runner, text: string, scan: Scan): void {
  switch (r.phase) {
    case "option-argument":
      r.phase = /[$`'"\\]/.test(text) ? "opaque" : "options";
      break;
    case "code":
      r.phase = code(r, text, scan);
      return;
    case "script":
      r.phase = expands(text) || dequote(text).startsWith("-") ? "opaque" : "data";
      break;
    case "options":
      options(r, text, scan);
      break;
    default:
      return;
  }
  if (scan.whole && r.phase === "opaque" && SHELLS.has(r.name)) {
    evaluates(`\`${r.name}\` with arguments the quoting lexer does not follow`);
  }
}

/** A word where a shell still reads options. */
function options(r: Runner, text: string, scan: Scan): void {
  const word = dequote(text);
  if (expands(text)) {
    // Made by an expansion: `"$OPT"` could be `-c`, or several words. A script's path is fine.
    r.phase = !r.code && PATH_FROM_VARIABLE.test(text) ? "data" : "opaque";
  } else if (word === "--") {
    r.phase = r.code ? "code" : "script";
  } else if (/^[-+][A-Za-z]+$/.test(word)) {
    const letters = word.slice(1);
    if (!SHELL_SHORT_FLAGS.test(letters) || (word[0] === "+" && /[cs]/.test(letters))) {
      r.phase = "opaque";
    } else if (/[oO]$/.test(letters)) {
      r.phase = "option-argument";
    }
    if (word[0] === "-") {
      r.code ||= letters.includes("c");
      r.stdin ||= letters.includes("s");
    }
  } else if (SHELL_OPTIONS_WITH_ARGUMENT.has(word)) {
    r.phase = "option-argument";
  } else if (word.startsWith("-") || word.startsWith("+")) {
    if (!SHELL_FLAGS.has(word)) r.phase = "opaque";
  } else {
    r.phase = r.code ? code(r, text, scan) : "data";
  }
}

/** Whether a word has a `$` or a backtick outside single quotes (a backslash is not trusted). */
function expands(text: string): boolean {
  let single = false;
  let double = false;
  for (const c of text) {
    if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    else if ((c === "$" || c === "`") && !single) return true;
  }
  return false;
}

/**
 * The operand of `sh -c`. The words after it are data only when it is a literal (`'…'` or a
 * plain word); a whole-template scan checks that code like the template itself, since it reads
 * the values as `$1`, `$2`, ….
 */
function code(r: Runner, text: string, scan: Scan): Runner["phase"] {
  const literal = /^'[^']*'$/.test(text) || /^[^$`'"\\]+$/.test(text);
  if (!literal) {
    if (scan.whole) evaluates(`\`${r.name} -c\` with code made by an expansion`);
    return "opaque";
  }
  if (scan.whole) checkWhole(text.replace(/^'|'$/g, ""));
  return "data";
}

/** A whole-template scan: an assignment word (`NAME=…` or an argument of `export`). */
function checkAssignment(text: string): void {
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text)![0];
  if (text[name.length] === "[")
    evaluates("an array subscript, which bash evaluates as arithmetic");
  if (SPECIAL_VARIABLES.has(name)) {
    evaluates(`an assignment to ${name}, whose value bash evaluates`);
  }
}

/** A whole-template scan: an argument of the running simple command. */
function checkArgument(l: Level, text: string): void {
  const command = l.command ?? "";
  const word = dequote(text);
  if (DECLARES.has(command)) {
    if (EVALUATING_DECLARE.test(text) || (text.includes("$") && !ASSIGNMENT.test(text))) {
      evaluates(
        `\`${command}\` with \`-i\`, \`-a\`, \`-A\` or \`-n\` (integer, array and reference variables evaluate what they are given)`,
      );
    }
    if (ASSIGNMENT.test(text)) checkAssignment(text);
  } else if (command === "printf" && /^-v/.test(word)) {
    evaluates("`printf -v`, which evaluates a variable name with its subscript");
  } else if ((command === "test" || command === "[") && /^-[vR]$/.test(word)) {
    evaluates(`\`${command} ${word}\`, which evaluates a variable name with its subscript`);
  } else if ((command === "for" || command === "select") && l.argumentCount === 1) {
    if (SPECIAL_VARIABLES.has(word))
      evaluates(`a \`${command}\` loop over ${word}, whose value bash evaluates`);
  } else if (l.runner && l.runner.phase === "opaque") {
    const base = word.slice(word.lastIndexOf("/") + 1);
    if (Object.hasOwn(EVALUATES, base) || RUNNERS.has(base)) {
      evaluates(`\`${base}\` run by \`${l.runner.name}\``);
    }
    // `set -- {{v}}; nice "$1"`: the expansion could be the program.
    if (expands(text)) evaluates(`an expansion in the arguments of \`${l.runner.name}\``);
  }
}

/** A simple command ends: a whole-template scan refuses a shell that reads commands from stdin. */
function endCommand(l: Level): void {
  const r = l.runner;
  if (
    l.scan.whole &&
    r !== undefined &&
    SHELLS.has(r.name) &&
    (r.stdin || (!r.code && (r.phase === "options" || r.phase === "option-argument")))
  ) {
    evaluates(`\`${r.name}\` reading its commands from standard input`);
  }
  l.runner = undefined;
  l.command = undefined;
}

/** `;`, `&`, `|`, a newline: the next word starts a new command. */
function separate(l: Level, source: string, end: number): void {
  endWord(l, source, end);
  endCommand(l);
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
  try {
    return scan(source, { whole: false });
  } catch (error) {
    if (error instanceof Unsupported) return unsupported(error.reason);
    throw error;
  }
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
    checkWhole(source.replace(/\{\{[^{}]*\}\}/g, "_"));
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const name = variables[0]![1]!;
    const what = error.reason.startsWith(AFTER) ? error.reason.slice(AFTER.length) : error.reason;
    throw new HookError(
      "TEMPLATE_ERROR",
      `template: {{${name}}} cannot be used in a template that also has ${what}: a value stored in a variable, in $1 or in a file could reach it`,
      { details: { variable: name } },
    );
  }
}

/** Scan all of `source` in whole-template mode; throws {@link Unsupported} for what it finds. */
function checkWhole(source: string): void {
  // The newline ends the last command, and a trailing `\` or `$` has something to pair with.
  scan(`${source}\n`, { whole: true });
}

function scan(source: string, mode: Scan): ShellContext {
  const stack: Frame[] = [level("top", mode)];
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
            `${AFTER}a $'…' string with a backslash (sh and bash read it differently)`,
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
        else if (c === "`") throw new Unsupported(`${AFTER}a \`…\` command substitution`);
        else if (c === "$") i = dollar(source, i, stack);
        continue;
      default:
        i = unquoted(source, i, frame, stack);
    }
  }
  if (mode.whole) return UNQUOTED;
  const frame = stack[stack.length - 1]!;
  if (frame === "ansi") return unsupported("a placeholder inside $'…' quoting");
  if (frame === "comment") return unsupported("a placeholder inside a # comment");
  const l = innermostLevel(stack);
  if (frame === l) startWord(l, source.length);
  // Innermost first: its reason is the most specific.
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i]!;
    if (typeof f === "string" || (f !== l && f.word === -1)) continue;
    const reason = refusal(f, source);
    if (reason !== undefined) return unsupported(reason);
  }
  return frame === "single" ? SINGLE : frame === "double" ? DOUBLE : UNQUOTED;
}

/** Why a placeholder in the word `l` is building cannot be quoted safely, if it cannot. */
function refusal(l: Level, source: string): string | undefined {
  if (l.role === "command") {
    // A variable can be expanded later where bash evaluates it (`$((x))`), and some names are
    // themselves evaluated or pick the program (`RANDOM`, `PS4`, `PATH`): refused outright.
    return ASSIGNMENT.test(source.slice(l.word))
      ? "a placeholder in a variable assignment (a value stored in a variable can be evaluated later; pass it as an argument or read it from stdin)"
      : "a placeholder in a command name (the value would choose the program)";
  }
  if (l.role === "dup") return "a placeholder after >& or <&, whose target bash expands twice";
  if (l.role === "target") return undefined;
  if (l.code !== undefined) {
    return `a placeholder in an argument of \`${l.code}\`, which evaluates it as code or as a variable name`;
  }
  if (l.runner !== undefined && l.runner.phase !== "data") {
    return SHELLS.has(l.runner.name)
      ? `a placeholder in the arguments of \`${l.runner.name}\` before its literal -c code has ended (the value could be an option, the code or the script)`
      : `a placeholder in the arguments of \`${l.runner.name}\`, which runs a command named in them (the value could choose the program)`;
  }
  if (l.phase === "code") {
    return "a placeholder right after an option that runs its argument as code";
  }
  if (l.phase === "options") {
    return "a placeholder where the value could be read as an option of the command";
  }
  return undefined;
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
      throw new Unsupported(`${AFTER}a here-document (<<)`);
    }
    if (next === "(") {
      // <( … ) and >( … ): a command substitution that is one word.
      startWord(l, i);
      stack.push(level("cmd", l.scan));
      return i + 1;
    }
    endWord(l, source, i);
    let j = i + 1;
    while (j < source.length && "<>&|".includes(source[j]!)) j++;
    l.target = source[i + 1] === "&" ? "dup" : "file";
    return j - 1;
  }
  if (c === "(") {
    if (next === "(") throw new Unsupported(`${AFTER}a (( … )) arithmetic command`);
    // `x=( … )`: an array, whose subscripts bash evaluates as arithmetic.
    if (l.word !== -1 && source[i - 1] === "=")
      throw new Unsupported(`${AFTER}an array assignment`);
    endWord(l, source, i);
    stack.push(level("paren", l.scan));
    return i;
  }
  if (c === ")") {
    endWord(l, source, i);
    if (l.kind === "top") {
      separate(l, source, i);
      return i;
    }
    endCommand(l);
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
    throw new Unsupported(`${AFTER}a \`…\` command substitution (use $( … ) instead)`);
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
    if (source[i + 2] === "(") throw new Unsupported(`${AFTER}a $(( … )) arithmetic expansion`);
    stack.push(level("cmd", innermostLevel(stack).scan));
    return i + 1;
  }
  if (next === "[") throw new Unsupported(`${AFTER}a $[ … ] arithmetic expansion`);
  if (next === "{") {
    SIMPLE_PARAM.lastIndex = i;
    const m = SIMPLE_PARAM.exec(source);
    if (!m) throw new Unsupported(`${AFTER}a \${…} expansion with operators`);
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
