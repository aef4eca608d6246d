import { ASSIGNMENT, dequote } from "../shell-commands.js";
import { KEEPS_COMMAND, RUNNERS } from "../shell-words.js";

/** Longer commands are not split (a rule then matches, and the hook runs). */
export const MAX_SPLIT_COMMAND_CHARS = 65_536;

/** Words after a command runner (`sudo`, `timeout 5`, `sh -c`) each tried as the start of the real command. */
const MAX_RUNNER_WORDS = 8;

/**
 * A program word bash rewrites before it runs it: parameter expansion (`$x`, `${IFS}`, `$'…'`),
 * a substitution, brace expansion (`{rm,-rf,/}`), a glob (`r*m`, `/bin/r?`), quotes (`'r'm`)
 * or a line continuation (`r\<newline>m`). What it becomes cannot be told from the text.
 */
const EXPANDED_WORD = /[$`{*?["']|\\\n/;

/**
 * The texts a Bash permission rule is tested against for one shell command: each simple
 * command of a list or pipeline (`a && b`, `a; b`, `a | b`, `( a )`, `{ a; }`, `$(a)`,
 * `` `a` ``, `<(a)`), without leading `NAME=value` assignments, reserved words and
 * redirections, in its words as written and with quotes removed. For a command runner
 * (`sudo`, `timeout 5`, `env`, `nohup`, `sh -c '…'`, `eval`, …) each of the next few words is
 * also tried as the start of the command, since which word is the program cannot be told
 * without each runner's options. A command named by its path is also tried by its file name.
 *
 * Undefined when the command is not followed: an unclosed quote, a here-document, a command
 * substitution inside double quotes, a command over {@link MAX_SPLIT_COMMAND_CHARS}, or a
 * program the shell only learns by expanding its word (see {@link EXPANDED_WORD}), including a
 * substitution where the program's name goes (`$(echo rm) -rf /`). Callers treat that as
 * "could be anything".
 */
export function bashSubcommands(command: string): string[] | undefined {
  if (command.length > MAX_SPLIT_COMMAND_CHARS) return undefined;
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let dropNext = false;
  // One entry per open parenthesis or backtick: a substitution keeps the command it interrupts,
  // so its output stays a word of that command (`$(echo rm) -rf /` has the program `$(…)`).
  const open: ({ kind: "$(" | "`"; words: string[]; word: string; dropNext: boolean } | null)[] =
    [];
  const endWord = () => {
    if (!inWord) return;
    if (dropNext) dropNext = false;
    else words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  const openSubstitution = (kind: "$(" | "`") => {
    open.push({ kind, words, word: inWord ? word : "", dropNext });
    words = [];
    word = "";
    inWord = false;
    dropNext = false;
  };
  const closeSubstitution = () => {
    endCommand();
    const outer = open.pop();
    if (!outer) return;
    words = outer.words;
    word = `${outer.word}$(…)`;
    inWord = true;
    dropNext = outer.dropNext;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || (c === "$" && command[i + 1] === "'")) {
      const start = i;
      if (c === "$") i++;
      for (i++; i < command.length && command[i] !== "'"; i++) {
        if (c === "$" && command[i] === "\\") i++;
      }
      if (i >= command.length) return undefined;
      word += command.slice(start, i + 1);
      inWord = true;
    } else if (c === '"') {
      const start = i;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        const d = command[i];
        if (d === "\\") i++;
        else if (d === "`" || (d === "$" && command[i + 1] === "(")) return undefined;
      }
      if (i >= command.length) return undefined;
      word += command.slice(start, i + 1);
      inWord = true;
    } else if (c === "\\") {
      word += command.slice(i, i + 2);
      inWord = true;
      i++;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "#" && !inWord) {
      while (i < command.length && command[i] !== "\n") i++;
      endCommand();
    } else if ((c === "<" || c === ">") && command[i + 1] === "(") {
      openSubstitution("$(");
      i++;
    } else if (c === "<" || c === ">") {
      if (command.startsWith("<<", i) && command[i + 2] !== "<") return undefined;
      // `2>`: the fd number belongs to the redirection.
      if (/^\d+$/.test(word)) {
        word = "";
        inWord = false;
      }
      endWord();
      while (i + 1 < command.length && /[<>&|]/.test(command[i + 1]!)) i++;
      // `>&2`: the target is glued on; otherwise the next word is.
      dropNext = true;
      if (/\d|-/.test(command[i + 1] ?? "") && command[i] === "&") {
        while (i + 1 < command.length && /[\d-]/.test(command[i + 1]!)) i++;
        dropNext = false;
      }
    } else if (c === "&" && command[i + 1] === ">") {
      endWord();
      i++;
      if (command[i + 1] === ">") i++;
      dropNext = true;
    } else if (c === "$" && command[i + 1] === "(") {
      openSubstitution("$(");
      i++;
    } else if (c === "`") {
      if (open.at(-1)?.kind === "`") closeSubstitution();
      else openSubstitution("`");
    } else if (c === ")") {
      if (open.at(-1)?.kind === "$(") closeSubstitution();
      else {
        open.pop();
        endCommand();
      }
    } else if (c === "(") {
      endCommand();
      open.push(null);
    } else if (";&|\n".includes(c)) {
      endCommand();
    } else {
      word += c;
      inWord = true;
    }
  }
  // Unclosed: bash would not run it.
  if (open.length > 0) return undefined;
  endCommand();
  const out = new Set<string>();
  for (const simple of commands) if (!candidates(simple, out)) return undefined;
  return [...out];
}

/** Adds a simple command's texts to `out`; false when its program cannot be told. */
function candidates(words: readonly string[], out: Set<string>): boolean {
  let start = 0;
  while (
    start < words.length &&
    (ASSIGNMENT.test(words[start]!) || KEEPS_COMMAND.has(words[start]!))
  ) {
    start++;
  }
  if (start >= words.length) return true;
  // A `case` pattern's `)` is not told from a subshell's: its commands are not followed.
  if (EXPANDED_WORD.test(words[start]!) || words[start] === "case") return false;
  const add = (from: number) => {
    const rest = words.slice(from);
    out.add(rest.join(" "));
    const plain = rest.map(dequote);
    out.add(plain.join(" "));
    const name = plain[0]!;
    if (name.includes("/"))
      out.add([name.slice(name.lastIndexOf("/") + 1), ...plain.slice(1)].join(" "));
  };
  add(start);
  const name = dequote(words[start]!);
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (RUNNERS.has(base) || base === "eval") {
    const last = Math.min(words.length, start + 1 + MAX_RUNNER_WORDS);
    for (let i = start + 1; i < last; i++) {
      // `sh -c 'rm -rf /'` and `eval "rm x"`: the quoted word is itself a command.
      const inner = dequote(words[i]!);
      if (/^['"]/.test(words[i]!) && /\s/.test(inner)) {
        const nested = bashSubcommands(inner);
        if (!nested) return false;
        for (const n of nested) out.add(n);
      } else if (EXPANDED_WORD.test(words[i]!.replace(/['"]/g, ""))) {
        // Any of these words may be the program (`sudo r* -rf /`).
        return false;
      }
      add(i);
    }
  }
  return true;
}
