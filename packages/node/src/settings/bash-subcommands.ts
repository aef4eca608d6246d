import { ASSIGNMENT, dequote } from "../shell-commands.js";
import { KEEPS_COMMAND, RUNNERS } from "../shell-words.js";

/** Longer commands are not split (a rule then matches, and the hook runs). */
export const MAX_SPLIT_COMMAND_CHARS = 65_536;

/** Words after a command runner (`sudo`, `timeout 5`, `sh -c`) each tried as the start of the real command. */
const MAX_RUNNER_WORDS = 8;

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
 * substitution inside double quotes, or a command over {@link MAX_SPLIT_COMMAND_CHARS}. Callers
 * treat that as "could be anything".
 */
export function bashSubcommands(command: string): string[] | undefined {
  if (command.length > MAX_SPLIT_COMMAND_CHARS) return undefined;
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let dropNext = false;
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
    } else if (c === "<" || c === ">") {
      if (command.startsWith("<<", i) && command[i + 2] !== "<") return undefined;
      if (command[i + 1] === "(") {
        endCommand();
        i++;
        continue;
      }
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
    } else if (";&|\n()`".includes(c) || (c === "$" && command[i + 1] === "(")) {
      endCommand();
      if (c === "$") i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  const out = new Set<string>();
  for (const simple of commands) candidates(simple, out);
  return [...out];
}

function candidates(words: readonly string[], out: Set<string>): void {
  let start = 0;
  while (
    start < words.length &&
    (ASSIGNMENT.test(words[start]!) || KEEPS_COMMAND.has(words[start]!))
  ) {
    start++;
  }
  if (start >= words.length) return;
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
        if (nested) for (const n of nested) out.add(n);
        else out.add(inner);
      }
      add(i);
    }
  }
}
