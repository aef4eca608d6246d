/**
 * One unquoted nesting level of the quoting lexer (`shell-lexer.ts`), and the words it reads
 * there: which word is a command's name, an argument or a redirection's target, what the running
 * simple command is, and why a placeholder in the word being built cannot be quoted safely.
 */
import {
  AFTER,
  ASSIGNMENT,
  type CommandState,
  checkArgument,
  checkAssignment,
  checkCommandEnd,
  dequote,
  evaluates,
  globs,
  notInert,
  runnerArgument,
  type Scan,
  startRunner,
  Unsupported,
} from "./shell-commands.js";
import {
  CODE_ARGUMENTS,
  EVALUATES,
  KEEPS_COMMAND,
  PATH_FROM_VARIABLE,
  SHELLS,
  STARTS_SHELL,
} from "./shell-words.js";

/**
 * Commands with an option whose argument is code or a variable name (`printf -v`, `[ -v`). For
 * those that take options only before their first operand, a value there could itself be that
 * option, so a placeholder is refused until the first operand.
 */
const CODE_OPTIONS: Readonly<Record<string, { option: RegExp; leading: boolean }>> = {
  printf: { option: /^-v$/, leading: true },
  wait: { option: /^-[A-Za-z]*p$/, leading: true },
  test: { option: /^-[vR]$/, leading: false },
  "[": { option: /^-[vR]$/, leading: false },
};

/** An unquoted nesting level: the whole command, a `$( … )` or `<( … )`, or a `( … )` subshell. */
export interface Level extends CommandState {
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
  /** The running simple command, when its arguments are code. */
  code: string | undefined;
  /** The running simple command's entry in {@link CODE_OPTIONS}. */
  options: (typeof CODE_OPTIONS)[string] | undefined;
  /** Where its arguments are: before the first operand, right after the code option, or past both. */
  phase: "options" | "code" | "rest";
  /** A `&>` redirection was seen in the running simple command. */
  ampRedirect: boolean;
  /** In the current word: an unquoted `{` was seen (`open`), then a `,` or `..` after it (`list`). */
  brace: "none" | "open" | "list";
}

export function level(kind: Level["kind"], scan: Scan): Level {
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
    brace: "none",
    ampRedirect: false,
    runner: undefined,
    argumentCount: 0,
    firstArgument: undefined,
    endOfOptions: false,
  };
}

export function startWord(l: Level, i: number): void {
  if (l.word !== -1) return;
  l.word = i;
  l.brace = "none";
  l.role = l.target === "dup" ? "dup" : l.target ? "target" : l.atCommand ? "command" : "argument";
  l.target = false;
  if (l.ampRedirect && (l.role === "command" || l.role === "argument")) {
    throw new Unsupported(
      `${AFTER}a word after an \`&>\` redirection (sh ends the command at \`&\` and starts another there, bash redirects it)`,
    );
  }
}

/** The word that started at `l.word` ends at `end`. */
export function endWord(l: Level, source: string, end: number): void {
  if (l.word === -1) return;
  const text = source.slice(l.word, end);
  const role = l.role;
  l.word = -1;
  if (role === "target" || role === "dup") return;
  // An fd number before a redirection (`2>`) is neither a command name nor an argument, nor is
  // bash's `{name}>` (a variable for the descriptor); sh reads `{name}` as a command, not found.
  if (/^(?:\d+|\{[^{}]*\})$/.test(text) && (source[end] === "<" || source[end] === ">")) return;
  if (role === "argument") argument(l, text);
  else commandWord(l, text);
}

/** A word where a command starts: an assignment, a word that keeps the command going, or its name. */
function commandWord(l: Level, text: string): void {
  if (ASSIGNMENT.test(text)) {
    if (l.scan.whole) checkAssignment(text);
    return;
  }
  const name = dequote(text);
  if (name === "case") throw new Unsupported(`${AFTER}a \`case\` statement`);
  if (KEEPS_COMMAND.has(name)) return;
  if (globs(text)) {
    throw new Unsupported(
      `${AFTER}a glob pattern (*, ? or […]) in a command name, which could match any program`,
    );
  }
  // An expansion may be empty (the next word is the command) or name a builtin like `eval`;
  // followed by a literal `/file` it is a path, judged by that file's name.
  if (text.includes("$") && !PATH_FROM_VARIABLE.test(text)) {
    if (l.scan.whole) {
      evaluates("a command name made by an expansion, which could name `eval` or `let`");
    }
    return;
  }
  startCommand(l, name);
}

/** A simple command named `name` (dequoted) starts: what its arguments are is decided here. */
function startCommand(l: Level, name: string): void {
  const base = name.slice(name.lastIndexOf("/") + 1);
  l.atCommand = false;
  l.command = base;
  l.argumentCount = 0;
  l.firstArgument = undefined;
  l.endOfOptions = false;
  if (CODE_ARGUMENTS.has(name)) l.code = name;
  // By the file name: `/usr/bin/xargs` is still xargs (and a path named `eval` is refused too).
  if (l.scan.whole && Object.hasOwn(EVALUATES, base)) {
    evaluates(`\`${base}\`, which evaluates ${EVALUATES[base]}`);
  }
  if (l.scan.whole && STARTS_SHELL.has(base)) {
    evaluates(`\`${base}\`, which starts a shell reading standard input when given no command`);
  }
  l.runner = startRunner(base);
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
  if (l.argumentCount === 1) l.firstArgument = dequote(text);
  if (dequote(text) === "--") l.endOfOptions = true;
  if (l.code === "[[" && text === "]]") l.code = undefined;
  if (l.options?.option.test(text) && (l.phase !== "rest" || !l.options.leading)) l.phase = "code";
  else if (!(text.startsWith("-") && text !== "--" && l.phase !== "rest")) l.phase = "rest";
  if (l.runner) runnerArgument(l.runner, text, l.scan);
  else if (l.command === "find" && FIND_RUNS.test(dequote(text))) {
    // The words after it name a program and its arguments: as in a runner's, to the end.
    l.runner = { name: "find -exec", phase: "opaque", code: false, stdin: false };
  }
  if (l.scan.whole) checkArgument(l, text);
}

/** find's actions that run a program named in the words after them. */
const FIND_RUNS = /^-(?:exec|execdir|ok|okdir)$/;

/** A simple command ends. */
export function endCommand(l: Level): void {
  checkCommandEnd(l.runner, l.scan);
  l.runner = undefined;
  l.command = undefined;
}

/** `;`, `&`, `|`, a newline: the next word starts a new command. */
export function separate(l: Level, source: string, end: number): void {
  endWord(l, source, end);
  endCommand(l);
  l.atCommand = true;
  l.target = false;
  l.ampRedirect = false;
  l.options = undefined;
  l.phase = "rest";
  // Inside `[[ … ]]`, `&&` and `||` are operators of the test, not command separators.
  if (l.code !== "[[") l.code = undefined;
}

/** Why a placeholder in the word `l` is building cannot be quoted safely, if it cannot. */
export function refusal(l: Level, source: string): string | undefined {
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
  // The words after a shell's literal `-c` code are its `$0`, `$1`, …, judged where the code reads them.
  if (l.runner !== undefined && SHELLS.has(l.runner.name)) return undefined;
  const why = notInert(l, l.argumentCount, true);
  return why === undefined ? undefined : `a placeholder in ${why}`;
}
