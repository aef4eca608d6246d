/**
 * What the quoting lexer in `shell-lexer.ts` knows about commands: how a shell's options lead to
 * its `-c` code and its `$0`, `$1`, … (where a placeholder is data), and, for a whole-template
 * scan, which commands, options and assignments could evaluate a value the template stored.
 */
import {
  DECLARES,
  EVALUATES,
  EVALUATING_DECLARE,
  INERT_BUILTINS,
  INTERPRETER,
  PATH_FROM_VARIABLE,
  RUNNERS,
  SHELL_BUILTINS,
  SHELL_FLAGS,
  SHELL_OPTIONS_WITH_ARGUMENT,
  SHELL_SHORT_FLAGS,
  SHELLS,
  SPECIAL_VARIABLES,
} from "./shell-words.js";

/** A variable assignment word: `NAME=`, `NAME+=`, `NAME[…]=`. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
/** How reasons for constructs the lexer cannot follow start. */
export const AFTER = "a placeholder after ";

/**
 * A command runner's arguments, word by word. Only a shell's are followed: its options, then
 * its `-c` code or script, then `$0`, `$1`, … (`data`), where a placeholder is only data. Any
 * option the lexer does not know makes the rest `opaque`, refused like every other runner's.
 */
export interface Runner {
  readonly name: string;
  phase: "options" | "option-argument" | "code" | "script" | "data" | "opaque";
  /** `-c` was given: the first operand is code. */
  code: boolean;
  /** `-s` was given: commands come from standard input. */
  stdin: boolean;
}

/** How far a scan looks: up to one placeholder, or the whole template. */
export interface Scan {
  /**
   * The whole template is scanned for what could evaluate a stored value (arithmetic, `eval`,
   * subscripts, …): each one is refused, since a value may reach it through a variable.
   */
  readonly whole: boolean;
  /** Scanning a shell's literal `-c` code, whose `$1`, `$2`, … hold the values. */
  readonly nested?: boolean;
  /** Scans the literal code of `sh -c '…'` the same way; throws {@link Unsupported}. */
  readonly checkCode: (code: string) => void;
}

/**
 * Why no quoting makes a spot safe. Reasons start with {@link AFTER} for constructs the lexer
 * cannot follow; a whole-template scan reports the construct alone.
 */
export class Unsupported {
  constructor(readonly reason: string) {}
}

/** A whole-template scan found something that could evaluate a value stored earlier. */
export function evaluates(what: string): never {
  throw new Unsupported(what);
}

/** What a whole-template scan needs to know about the running simple command. */
export interface CommandState {
  /** The scan it belongs to. */
  readonly scan: Scan;
  /** Its name, once known. */
  command: string | undefined;
  /** Its arguments so far. */
  argumentCount: number;
  /** Set when it runs a command named in its arguments. */
  runner: Runner | undefined;
  /** Its first argument, quotes removed. */
  firstArgument: string | undefined;
  /** A literal `--` argument was seen: later words are operands, never options. */
  endOfOptions: boolean;
}

/**
 * Why a placeholder (or, in a whole-template scan, an expansion) that is argument `index` of the
 * running simple command is not proven inert; undefined when it is. Only a few builtins never
 * evaluate their arguments, and an interpreter runs them. Any other program gets one argument, as
 * in the exec form.
 */
export function notInert(l: CommandState, index: number, placeholder: boolean): string | undefined {
  const command = l.command ?? "";
  if (SHELL_BUILTINS.has(command)) {
    if (!INERT_BUILTINS.has(command)) {
      return `an argument of the builtin \`${command}\` (builtins other than echo, printf and cd may evaluate an argument as code, arithmetic or a variable name, or read it as an option)`;
    }
    // `cd {{v}} && ./tool`: the value would pick the folder a relative program is run from.
    // Outside a shell's `-c` code an expansion cannot hold a value, so `cd "$DIR"` is fine there.
    if (command === "cd" && (placeholder || l.scan.nested === true)) {
      return "an argument of `cd` (the value would choose the folder relative programs run from)";
    }
    if (command === "printf" && index <= (l.firstArgument === "--" ? 1 : 0)) {
      return "the format of `printf` (a value there could be `-v` or a format)";
    }
    return undefined;
  }
  if (INTERPRETER.test(command)) {
    return `an argument of \`${command}\`, which runs code given in its arguments`;
  }
  // Any other program gets the value as one argument, as the exec form would pass it; what it
  // makes of an option-like value is its own (a literal `--` before the placeholder prevents it).
  return undefined;
}

/** A command runner's state, when `name` (a base name) is one. */
export function startRunner(name: string): Runner | undefined {
  if (!RUNNERS.has(name)) return undefined;
  const phase = SHELLS.has(name) ? "options" : name === "npx" ? "script" : "opaque";
  return { name, phase, code: false, stdin: false };
}

/** The text of a word with quote characters removed: `e'v'al` is still `eval`. */
export function dequote(text: string): string {
  return text.replace(/['"\\]/g, "");
}

/**
 * Whether a word has a glob pattern (`*`, `?`, `[…]`) outside quotes: the shell replaces it with
 * the file names it matches, so `/bin/s[h]` runs `/bin/sh` whatever the checks make of the word.
 * A lone `[` (test) is not one. Words with `$( … )` are judged by their expansion instead.
 */
export function globs(text: string): boolean {
  return /[*?]|\[.*\]/.test(text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\./gs, "_"));
}

/** Whether a word has a `$` or a backtick outside single quotes (a backslash is not trusted). */
export function expands(text: string): boolean {
  let single = false;
  let double = false;
  for (const c of text) {
    if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    else if ((c === "$" || c === "`") && !single) return true;
  }
  return false;
}

/** Follow a shell's options to its code, script and data (see {@link Runner}). */
export function runnerArgument(r: Runner, text: string, scan: Scan): void {
  switch (r.phase) {
    case "option-argument":
      r.phase = /[$`'"\\]/.test(text) ? "opaque" : "options";
      break;
    case "code":
      r.phase = code(r, text, scan);
      return;
    case "script": {
      const program = dequote(text).slice(dequote(text).lastIndexOf("/") + 1);
      // `npx node -e {{v}}`: the program npx runs could itself run its arguments as code.
      const runsCode = INTERPRETER.test(program) || RUNNERS.has(program);
      r.phase = expands(text) || dequote(text).startsWith("-") || runsCode ? "opaque" : "data";
      if (readsStdin(text)) r.stdin = true;
      break;
    }
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
  } else if (r.code) {
    r.phase = code(r, text, scan);
  } else {
    r.phase = "data";
    // `bash /dev/stdin` and `sh /proc/self/fd/0` read their script from standard input.
    if (scan.whole && readsStdin(text)) r.stdin = true;
  }
}

/**
 * Whether a shell's script operand could be its standard input, or which file it is cannot be
 * told: `/dev/stdin` however spelled (`//dev/stdin`, `../../dev/stdin`, `/proc/self/fd/0`).
 */
function readsStdin(text: string): boolean {
  return /(?:^|\/)(?:dev|proc)\//.test(dequote(text)) || globs(text);
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
  if (scan.whole) scan.checkCode(text.replace(/^'|'$/g, ""));
  return "data";
}

/** A whole-template scan: an assignment word (`NAME=…` or an argument of `export`). */
export function checkAssignment(text: string): void {
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text)![0];
  if (text[name.length] === "[")
    evaluates("an array subscript, which bash evaluates as arithmetic");
  if (SPECIAL_VARIABLES.has(name)) {
    evaluates(`an assignment to ${name}, whose value bash evaluates`);
  }
}

/** A whole-template scan: an argument of the running simple command. */
export function checkArgument(l: CommandState, text: string): void {
  const command = l.command ?? "";
  const word = dequote(text);
  // A shell's `$0`, `$1`, … are judged where its literal code reads them.
  const shellData =
    l.runner !== undefined && SHELLS.has(l.runner.name) && l.runner.phase === "data";
  if (expands(text) && !shellData && !(DECLARES.has(command) && ASSIGNMENT.test(text))) {
    const why = notInert(l, l.argumentCount - 1, false);
    if (why !== undefined) {
      evaluates(`an expansion in ${why}, where a value stored earlier could be read`);
    }
  }
  if (DECLARES.has(command)) {
    if (EVALUATING_DECLARE.test(text) || (text.includes("$") && !ASSIGNMENT.test(text))) {
      evaluates(
        `\`${command}\` with \`-i\`, \`-a\`, \`-A\` or \`-n\` (integer, array and reference variables evaluate what they are given)`,
      );
    }
    if (ASSIGNMENT.test(text)) checkAssignment(text);
  } else if (command === "printf" && /^-v/.test(word)) {
    evaluates("`printf -v`, which evaluates a variable name with its subscript");
  } else if (command === "wait" && /^-[A-Za-z]*p/.test(word)) {
    evaluates("`wait -p`, which evaluates a variable name with its subscript");
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
    if (globs(text)) {
      evaluates(
        `a glob pattern in the arguments of \`${l.runner.name}\`, which could match any program`,
      );
    }
    // `set -- {{v}}; nice "$1"`: the expansion could be the program.
    if (expands(text)) evaluates(`an expansion in the arguments of \`${l.runner.name}\``);
  }
}

/** A simple command ends: a whole-template scan refuses a shell that reads commands from stdin. */
export function checkCommandEnd(r: Runner | undefined, scan: Scan): void {
  if (
    scan.whole &&
    r !== undefined &&
    SHELLS.has(r.name) &&
    // Still reading options, or past a `--` that named no script: the commands come from stdin.
    (r.stdin ||
      (!r.code && (r.phase === "options" || r.phase === "option-argument" || r.phase === "script")))
  ) {
    evaluates(`\`${r.name}\` reading its commands from standard input`);
  }
}
