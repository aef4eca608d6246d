import { ASSIGNMENT, dequote } from "./shell-commands.js";
import {
  INTERPRETER,
  KEEPS_COMMAND,
  RUNNERS,
  SHELLS,
  SPECIAL_VARIABLES,
  STARTS_SHELL,
} from "./shell-words.js";
import { simpleCommands } from "./simple-commands.js";

/** Longer commands are not split (a rule then matches, and the hook runs). */
export const MAX_SPLIT_COMMAND_CHARS = 65_536;

/** A command runner with more words after it than this is not followed. */
const MAX_RUNNER_WORDS = 64;

/**
 * A program word bash rewrites before it runs it: parameter expansion (`$x`, `${IFS}`, `$'…'`),
 * a substitution, brace expansion (`{rm,-rf,/}`), a glob (`r*m`, `/bin/r?`), quotes (`'r'm`)
 * or a line continuation (`r\<newline>m`). What it becomes cannot be told from the text.
 */
const EXPANDED_WORD = /[$`{*?["']|\\\n/;

/** The same, for a word after a runner: quotes there are removed before it is judged. */
const EXPANDED_RUNNER_WORD = /[$`{*?[]|\\\n/;

/**
 * An argument the shell rewrites: the command text from there on is not what runs, so the
 * words before it are compared with a rule as a prefix of any text (`git $SUB` may be `git push`).
 */
const OPEN_WORD = /[$`{*?[]|\\\n/;

/**
 * Programs that run code the splitter does not read: code in a string or on standard input,
 * code kept for later (`trap`, `alias`, functions), callbacks, a file sourced into the shell,
 * arithmetic and variable names whose array subscripts bash evaluates (`let`, `[[`), and
 * programs run for every input line or file (`xargs`, `parallel`). A command naming one of
 * these is never judged "not matching".
 */
const RUNS_UNREAD_CODE = new Set(
  [
    "eval trap source . alias unalias function coproc hash enable fc bind complete compgen",
    "mapfile readarray let [[ (( xargs parallel exec",
  ]
    .join(" ")
    .split(" "),
);

/** Package-manager front ends that run a program named in their arguments (`npm exec rm`, `uv run`). */
const PACKAGE_RUNNERS = new Set("npm pnpm yarn bun uv poetry pipx pdm hatch cargo".split(" "));

/**
 * git subcommands that run commands given in their arguments or in the configuration
 * (`rebase -x`, `bisect run`, `submodule foreach`, `config alias.x '!…'`).
 */
const GIT_RUNS = new Set(
  "config rebase bisect submodule filter-branch difftool mergetool send-email daemon archimport cvsimport p4 svn".split(
    " ",
  ),
);

/**
 * Builtins that evaluate a variable name's array subscript (`a[$(…)]`) or whose option makes them
 * do so (`printf -v`, `test -v`, `declare -i`): unsure when an argument could be such a name.
 */
const NAMES_VARIABLES = new Set(
  "declare typeset local export readonly read unset getopts wait printf test".split(" "),
);

/** What a command splits into: texts a rule is matched against, and texts only its start is known of. */
export interface SplitCommand {
  /** Whole simple commands, as written and with quotes removed. */
  readonly texts: string[];
  /**
   * Starts of simple commands whose next word the shell rewrites (`git $SUB`): any text that
   * starts with one of these could run, so a rule that could match such a text matches.
   */
  readonly open: string[];
}

interface Out {
  texts: Set<string>;
  open: Set<string>;
}

/**
 * The texts a Bash permission rule is tested against for one shell command: each simple
 * command of a list or pipeline (`a && b`, `a; b`, `a | b`, `( a )`, `{ a; }`, `$(a)`,
 * `` `a` ``), without leading reserved words and redirections, in its words as written and with
 * quotes removed. For a command runner (`sudo`, `timeout 5`, `nice`, `command -p --`, …) every
 * later word is also tried as the start of the command, since which word is the program cannot
 * be told without each runner's options. A command named by its path is also tried by its file
 * name; `sh -c '…'` with literal code is read as that code.
 *
 * Undefined ("could be anything") whenever the command could run code the splitter did not
 * read: an unclosed quote, a here-document, process substitution, arithmetic, `${…}` with
 * operators, a command substitution inside double quotes, a program the shell only learns by
 * expanding its word, a program run with variables set for it, a shell reading standard input
 * or a script, `eval`, `trap`, `source`, functions, `find -exec`, `xargs`, interpreters,
 * git options before the subcommand, or a command over {@link MAX_SPLIT_COMMAND_CHARS}.
 */
export function splitBashCommand(command: string): SplitCommand | undefined {
  const out: Out = { texts: new Set(), open: new Set() };
  if (!split(command, out)) return undefined;
  return { texts: [...out.texts], open: [...out.open] };
}

/** {@link splitBashCommand}'s whole texts alone, or undefined when it is unsure. */
export function bashSubcommands(command: string): string[] | undefined {
  return splitBashCommand(command)?.texts;
}

/** Adds `command`'s texts to `out`; false when it is unsure. */
function split(command: string, out: Out): boolean {
  if (command.length > MAX_SPLIT_COMMAND_CHARS) return false;
  return simpleCommands(command)?.every((words) => candidates(words, out)) ?? false;
}

/**
 * {@link splitBashCommand} for simple commands another reader found (each its words as written,
 * a substitution as `$(…)`): what they run, by the same word tables. For comparing readers.
 */
export function splitSimpleCommands(
  commands: readonly (readonly string[])[],
): SplitCommand | undefined {
  const out: Out = { texts: new Set(), open: new Set() };
  if (!commands.every((words) => candidates(words, out))) return undefined;
  return { texts: [...out.texts], open: [...out.open] };
}

/** Adds a simple command's texts to `out`; false when what it runs cannot be told. */
function candidates(words: readonly string[], out: Out): boolean {
  let start = 0;
  while (start < words.length && KEEPS_COMMAND.has(words[start]!)) {
    // `coproc NAME { …; }`: the name is not the program.
    if (words[start] === "coproc") return false;
    start++;
  }
  let assigned = false;
  for (; start < words.length && ASSIGNMENT.test(words[start]!); start++) {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(words[start]!)![0];
    // `a[…]=` evaluates its subscript; PS4, BASH_ENV and their kin are evaluated or run later.
    if (words[start]![name.length] === "[" || SPECIAL_VARIABLES.has(name)) return false;
    assigned = true;
  }
  if (start >= words.length) return true;
  // Variables set for one program change what it runs: LD_PRELOAD, BASH_ENV, GIT_*, PAGER, ….
  if (assigned) return false;
  if (EXPANDED_WORD.test(words[start]!) || words[start] === "case") return false;
  return program(words, start, out, false);
}

/** The simple command that starts at `words[start]`; `inRunner` when a runner already tries every later word. */
function program(words: readonly string[], start: number, out: Out, inRunner: boolean): boolean {
  const name = dequote(words[start]!);
  const base = name.slice(name.lastIndexOf("/") + 1);
  const args = words.slice(start + 1);
  if (RUNS_UNREAD_CODE.has(base) || INTERPRETER.test(base)) return false;
  if (NAMES_VARIABLES.has(base) && !namesAreLiteral(base, args)) return false;
  if (base === "find" && args.some((w) => /^-(?:exec|execdir|ok|okdir)$/.test(dequote(w)))) {
    return false;
  }
  if (base === "git") {
    const sub = dequote(args[0] ?? "");
    // `git -C . push`, `git -c alias.x='!…' x`, `git --no-pager push`: options before the subcommand.
    if (sub.startsWith("-") || GIT_RUNS.has(sub)) return false;
  }
  if (STARTS_SHELL.has(base) && startsShell(base, args)) return false;
  add(words, start, out);
  if (SHELLS.has(base)) return shellCode(args, out);
  if (inRunner || !(RUNNERS.has(base) || PACKAGE_RUNNERS.has(base))) return true;
  if (args.length > MAX_RUNNER_WORDS) return false;
  for (let i = start + 1; i < words.length; i++) {
    const word = words[i]!;
    // `env A=1 rm`, `sudo FOO=1 rm`: variables set for the program.
    if (ASSIGNMENT.test(dequote(word))) return false;
    // Any of these words may be the program (`sudo r* -rf /`).
    if (EXPANDED_RUNNER_WORD.test(word)) return false;
    const inner = dequote(word);
    // `env -S 'rm x'`, `su -c 'rm x'`, `watch 'rm x'`: a quoted word that is itself a command.
    if (/^['"]/.test(word) && /\s/.test(inner) && !split(inner, out)) return false;
    if (!program(words, i, out, true)) return false;
  }
  return true;
}

/** Adds the texts of the simple command from `words[from]` on. */
function add(words: readonly string[], from: number, out: Out): void {
  let rest = words.slice(from);
  const openAt = rest.findIndex((w, i) => i > 0 && OPEN_WORD.test(w));
  const target = openAt === -1 ? out.texts : out.open;
  if (openAt !== -1) rest = rest.slice(0, openAt);
  target.add(rest.join(" "));
  const plain = rest.map(dequote);
  target.add(plain.join(" "));
  // Dropping quote characters is not what the shell does: `"a\"b"` is `a"b`, `'a\'` is `a\`.
  target.add(rest.map(removeQuotes).join(" "));
  const name = plain[0]!;
  if (name.includes("/"))
    target.add([name.slice(name.lastIndexOf("/") + 1), ...plain.slice(1)].join(" "));
}

/**
 * A word as the shell's quote removal leaves it, for a word with no expansion in it (`add`
 * cuts a command before the first such word): `'…'` is literal, inside `"…"` a backslash
 * escapes only `$`, `` ` ``, `"`, `\` and a newline, and outside quotes it escapes anything.
 */
function removeQuotes(word: string): string {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      const close = end === -1 ? word.length : end;
      out += word.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      for (i++; i < word.length && word[i] !== '"'; i++) {
        let d = word[i]!;
        if (d === "\\" && /[$`"\\\n]/.test(word[i + 1] ?? "")) {
          i++;
          d = word[i]!;
          if (d === "\n") continue;
        }
        out += d;
      }
    } else if (c === "\\") {
      i++;
      if (i < word.length && word[i] !== "\n") out += word[i];
    } else out += c;
  }
  return out;
}

/**
 * A shell's arguments: only `sh -c 'literal code'` (after flags that take no argument) is read,
 * as that code. A shell reading standard input (`| sh`, `sh <<<`, `sh -s`), a script file, or
 * code made by an expansion is unsure.
 */
function shellCode(args: readonly string[], out: Out): boolean {
  let code = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      i++;
      break;
    }
    if (/^-[abcefhklmnprtuvxBCEHP]+$/.test(word)) code ||= word.includes("c");
    else if (!/^--(?:norc|noprofile|posix|noediting)$/.test(word)) break;
  }
  const text = args[i];
  if (!code || text === undefined) return false;
  const literal = /^'([^']*)'$/.exec(text)?.[1] ?? /^"([^"$`\\]*)"$/.exec(text)?.[1];
  if (literal !== undefined) return split(literal, out);
  return /^[^$`'"\\{}*?[\]]+$/.test(text) && split(text, out);
}

/** Whether a runner that starts a shell when given no command (`sudo -s`, `su`, `ssh host`) does so. */
function startsShell(base: string, args: readonly string[]): boolean {
  if (base !== "sudo" && base !== "doas") return true;
  return args.length === 0 || args.some((w) => /^-[A-Za-z]*[si]|^--(?:shell|login)$/.test(w));
}

/**
 * Whether the variable names a builtin of {@link NAMES_VARIABLES} is given are plain: no
 * expansion that could become a name with a subscript (`read "$x"`) or an option (`printf $x`),
 * no subscript, and none of the options that make it evaluate one (`printf -v`, `test -v`,
 * `declare -i`).
 */
function namesAreLiteral(base: string, args: readonly string[]): boolean {
  if (base === "printf" || base === "test") {
    const first = args[0] ?? "";
    if (base === "printf" && (/^-/.test(dequote(first)) || /[$`]/.test(first))) return false;
    if (base === "test" && args.some((w) => /^-[vR]$/.test(dequote(w)) || /[$`]/.test(w))) {
      return false;
    }
    return true;
  }
  for (const word of args) {
    if (ASSIGNMENT.test(word)) {
      if (word.slice(0, word.indexOf("=")).includes("[")) return false;
      continue;
    }
    if (/[$`[\\]/.test(word) || /^[-+][A-Za-z]*[iaAn]/.test(word)) return false;
  }
  return true;
}
