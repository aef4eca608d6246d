/**
 * The quoting lexer: it follows shell source (POSIX `sh` and bash) far enough to say what
 * quoting context a placeholder is in, and, over a whole template, to find what could evaluate
 * a value the template stored. What it knows about particular commands is in
 * `shell-commands.ts` and `shell-words.ts`.
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

type Quote = "single" | "double" | "ansi" | "comment";

/** An unquoted nesting level: the whole command, a `$( … )` or `<( … )`, or a `( … )` subshell. */
interface Level extends CommandState {
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
    brace: "none",
    ampRedirect: false,
    runner: undefined,
    argumentCount: 0,
    firstArgument: undefined,
    endOfOptions: false,
  };
}

function unsupported(reason: string): ShellContext {
  return { kind: "unsupported", reason };
}

function startWord(l: Level, i: number): void {
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
function endWord(l: Level, source: string, end: number): void {
  if (l.word === -1) return;
  const text = source.slice(l.word, end);
  const role = l.role;
  l.word = -1;
  if (role === "target" || role === "dup") return;
  // An fd number before a redirection (`2>`) is neither a command name nor an argument, nor is
  // bash's `{name}>` (a variable for the descriptor); sh reads `{name}` as a command, not found.
  if (/^(?:\d+|\{[^{}]*\})$/.test(text) && (source[end] === "<" || source[end] === ">")) return;
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
function endCommand(l: Level): void {
  checkCommandEnd(l.runner, l.scan);
  l.runner = undefined;
  l.command = undefined;
}

/** `;`, `&`, `|`, a newline: the next word starts a new command. */
function separate(l: Level, source: string, end: number): void {
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

function innermostLevel(stack: readonly Frame[]): Level {
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i]!;
    if (typeof f !== "string") return f;
  }
  return stack[0] as Level;
}

/** The quoting context at the end of `source`: what {@link shellContextAt} returns. */
export function scanPrefix(source: string): ShellContext {
  try {
    return scan(source, PREFIX);
  } catch (error) {
    if (error instanceof Unsupported) return unsupported(error.reason);
    throw error;
  }
}

/** Scan all of `source` in whole-template mode; throws {@link Unsupported} for what it finds. */
export function scanWhole(source: string): void {
  // The newline ends the last command, and a trailing `\` or `$` has something to pair with.
  scan(`${source}\n`, WHOLE);
}

const PREFIX: Scan = { whole: false, checkCode: () => {} };
const WHOLE: Scan = { whole: true, checkCode: scanNested };
const NESTED: Scan = { whole: true, nested: true, checkCode: scanNested };

/** A shell's literal `-c` code, scanned like a whole template: its `$1`, `$2`, … hold the values. */
function scanNested(source: string): void {
  scan(`${source}\n`, NESTED);
}

function scan(source: string, mode: Scan): ShellContext {
  const stack: Frame[] = [level("top", mode)];
  for (let i = 0; i < source.length; i++) {
    const frame = stack[stack.length - 1]!;
    i =
      typeof frame === "string"
        ? quoted(frame, source, i, stack)
        : unquoted(source, i, frame, stack);
  }
  return mode.whole ? UNQUOTED : contextAtEnd(source, stack);
}

/** One character at `i` inside a quote or a comment; returns the index of the last one used. */
function quoted(frame: Quote, source: string, i: number, stack: Frame[]): number {
  const c = source[i]!;
  switch (frame) {
    case "single":
      if (c === "'") stack.pop();
      return i;
    case "ansi":
      // dash reads `$'a\'` as `$` and the string `a\`; bash as an escaped quote.
      if (c === "\\")
        throw new Unsupported(
          `${AFTER}a $'…' string with a backslash (sh and bash read it differently)`,
        );
      if (c === "'") stack.pop();
      return i;
    case "comment":
      if (c === "\n") {
        stack.pop();
        separate(innermostLevel(stack), source, i);
      }
      return i;
    case "double":
      if (c === "\\") return escaped(source, lineContinuation(source, i));
      if (c === '"') stack.pop();
      else if (c === "`") throw new Unsupported(`${AFTER}a \`…\` command substitution`);
      else if (c === "$") return dollar(source, i, stack);
      return i;
  }
}

/** The quoting context a placeholder at the end of a prefix scan is in, or why none is safe. */
function contextAtEnd(source: string, stack: Frame[]): ShellContext {
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
  // The words after a shell's literal `-c` code are its `$0`, `$1`, …, judged where the code reads them.
  if (l.runner !== undefined && SHELLS.has(l.runner.name)) return undefined;
  const why = notInert(l, l.argumentCount, true);
  return why === undefined ? undefined : `a placeholder in ${why}`;
}

/**
 * A backslash at `i`, and whether it starts a line continuation the checks can follow. The
 * shell drops a backslash-newline before it reads anything else, so inside a word or after an
 * operator it joins what is around it: `ev\<newline>al` is `eval`, `"$\<newline>(…)"` a
 * command substitution, `<\<newline><` a here-document. Only after a blank (or at a line's
 * start) is it the blank it looks like; anywhere else it is refused. Returns `i`.
 */
function lineContinuation(source: string, i: number): number {
  if (source[i + 1] !== "\n" || i === 0) return i;
  const before = source[i - 1]!;
  if (BLANK.includes(before) || before === "\n") return i;
  throw new Unsupported(
    `${AFTER}a line continuation (backslash-newline) inside a word or right after an operator or quote (put a blank before the backslash)`,
  );
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
  // A line continuation is invisible; it may only stand where a blank could.
  if (c === "\\" && next === "\n") return lineContinuation(source, i) + 1;
  if (c === "&" && next === ">" && source[i - 1] !== "&") return bothOutputs(l, source, i);
  if (c === "\n" || c === ";" || c === "&" || c === "|") {
    separate(l, source, i);
    return i;
  }
  if (c === "<" || c === ">") return redirection(l, source, i, stack);
  if (c === "(") return openParen(l, source, i, stack);
  if (c === ")") return closeParen(l, source, i, stack);
  if (c === "#" && l.word === -1) {
    stack.push("comment");
    return i;
  }
  return wordCharacter(l, source, i, stack);
}

/**
 * `&>`: bash redirects both outputs of the running command to the file; sh runs the command in
 * the background and starts another with `>file`. They agree while no word follows the file.
 */
function bothOutputs(l: Level, source: string, i: number): number {
  endWord(l, source, i);
  l.ampRedirect = true;
  return i;
}

/** `<`, `>`, `>>`, `>&`, `<>`, …, or a process substitution `<( … )` / `>( … )`. */
function redirection(l: Level, source: string, i: number, stack: Frame[]): number {
  const c = source[i];
  const next = source[i + 1];
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
  l.target = next === "&" ? "dup" : "file";
  return j - 1;
}

/** `(` outside a word: a subshell. */
function openParen(l: Level, source: string, i: number, stack: Frame[]): number {
  if (source[i + 1] === "(") throw new Unsupported(`${AFTER}a (( … )) arithmetic command`);
  // `x=( … )`: an array, whose subscripts bash evaluates as arithmetic.
  if (l.word !== -1 && source[i - 1] === "=") throw new Unsupported(`${AFTER}an array assignment`);
  endWord(l, source, i);
  stack.push(level("paren", l.scan));
  return i;
}

/** `)`: the end of a `$( … )`, `<( … )` or subshell (at the top level, a separator). */
function closeParen(l: Level, source: string, i: number, stack: Frame[]): number {
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

/** A character that is part of a word: it may open a quote or start an expansion. */
function wordCharacter(l: Level, source: string, i: number, stack: Frame[]): number {
  const c = source[i];
  startWord(l, i);
  braceExpansion(l, source, i);
  if (c === "\\") return escaped(source, i);
  if (c === "'") stack.push("single");
  else if (c === '"') stack.push("double");
  else if (c === "`") {
    throw new Unsupported(`${AFTER}a \`…\` command substitution (use $( … ) instead)`);
  } else if (c === "$") return dollar(source, i, stack);
  return i;
}

/**
 * An unquoted character at `i` of the current word. bash (not sh) turns `{a,b}` and `{1..3}`
 * into several words before anything else: `{eval,} x` runs `eval x`, and `{-i,}` is the `-i`
 * of `declare`. The words the checks judge would not be the ones bash runs, so a word with one
 * is refused. `${…}` never gets here, and a lone `{}` (as in `find -exec`) is not one.
 */
function braceExpansion(l: Level, source: string, i: number): void {
  const c = source[i];
  if (c === "{") {
    if (l.brace === "none") l.brace = "open";
  } else if (l.brace === "open" && (c === "," || (c === "." && source[i + 1] === "."))) {
    l.brace = "list";
  } else if (c === "}" && l.brace === "list") {
    throw new Unsupported(
      `${AFTER}a brace expansion ({a,b} or {1..3}), which bash turns into several words`,
    );
  }
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
