/**
 * The quoting lexer: it follows shell source (POSIX `sh` and bash) far enough to say what
 * quoting context a placeholder is in, and, over a whole template, to find what could evaluate
 * a value the template stored. Its nesting levels and the words read in them are in
 * `shell-level.ts`; what it knows about particular commands, in `shell-commands.ts` and
 * `shell-words.ts`.
 */
import { AFTER, type Scan, Unsupported } from "./shell-commands.js";
import {
  endCommand,
  endWord,
  type Level,
  level,
  refusal,
  separate,
  startWord,
} from "./shell-level.js";

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

type Quote = "single" | "double" | "ansi" | "comment";

type Frame = Level | Quote;

function unsupported(reason: string): ShellContext {
  return { kind: "unsupported", reason };
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
