// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, not JS templates.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import fc from "fast-check";
import type { SplitCommand } from "../../src/shell/bash-subcommands.js";

/**
 * A judge for readers of shell text: real `dash` and `bash` run a command, and stand-ins for a
 * few programs record every argument vector they were started with. A reader is then scored by
 * what it said the command runs. Used by the splitter's test and by
 * `scripts/shell-parser-eval.ts`, which compares parsers on the same inputs.
 */

/** The programs the corpus runs; each is a stand-in that only records its arguments. */
export const PROGRAMS = ["rm", "git", "touch", "chmod"] as const;
export const SHELLS = ["dash", "bash"] as const;

export interface SplitLab {
  /**
   * The argument vectors of the stand-ins `shell -c command` started, in no particular order.
   * Runs may overlap: each records into a folder of its own.
   */
  ran(command: string, shell: string): Promise<string[][]>;
  /** Whether `shell -n` accepts the command (it parses without running it). */
  parses(command: string, shell: string): boolean;
  dispose(): void;
}

export function splitLab(): SplitLab {
  const dir = mkdtempSync(join(tmpdir(), "a3s-judge-"));
  const bin = join(dir, "bin");
  const log = join(dir, "log");
  const work = join(dir, "work");
  for (const d of [bin, log, work]) mkdirSync(d);
  for (const program of PROGRAMS) {
    // NUL-separated, one file per process: the name first, then the arguments.
    writeFileSync(
      join(bin, program),
      `#!/bin/sh\nprintf '%s\\0' '${program}' "$@" > "$A3S_JUDGE_LOG/$$"\n`,
    );
    chmodSync(join(bin, program), 0o755);
  }
  const env = { PATH: [bin, "/usr/bin", "/bin"].join(delimiter), HOME: dir };
  let runs = 0;
  return {
    async ran(command, shell) {
      // Each run records into a folder of its own, so a stand-in still running from another
      // command (an earlier one, or one running at the same time) cannot be counted as this one's.
      const records = join(log, String(runs++));
      mkdirSync(records);
      // Every process the command starts inherits the pipes on fds 1 to 3, and 'close' comes only
      // once all of them are closed and the shell has exited: a stand-in the shell did not wait
      // for (a process substitution whose output goes to /dev/null, a background job) is still
      // waited for, and has written its record before the folder is read.
      await new Promise<void>((done, fail) => {
        const child = spawn(shell, ["-c", command], {
          cwd: work,
          env: { ...env, A3S_JUDGE_LOG: records },
          stdio: ["pipe", "pipe", "pipe", "pipe"],
          timeout: 10_000,
        });
        // Read to the end, or a pipe never closes (and a writer could block on a full one).
        // (fd 3 is a socket, both ends readable.)
        for (const stream of [child.stdout, child.stderr, child.stdio[3] as Readable])
          stream.resume();
        child.stdin.end();
        child.on("error", fail);
        child.on("close", () => done());
      });
      const argvs = readdirSync(records).map((f) =>
        readFileSync(join(records, f), "utf8").split("\0").slice(0, -1),
      );
      rmSync(records, { recursive: true, force: true });
      return argvs;
    },
    parses(command, shell) {
      const r = spawnSync(shell, ["-n", "-c", command], { stdio: "ignore", timeout: 10_000 });
      return r.status === 0;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What a reader made of one command, compared with what ran. */
export type Verdict =
  /** It said "unsure": a guard runs. */
  | "refused"
  /** Every program that ran is in its list with the arguments it ran with. */
  | "right"
  /** A program that ran is in its list, but with other words. */
  | "wrong-words"
  /** A program ran that is not in its list at all: a rule would not have seen it. */
  | "missed";

/** Judges a reader's answer against the argument vectors that ran under any shell. */
export function verdict(split: SplitCommand | undefined, ran: readonly string[][]): Verdict {
  if (split === undefined) return "refused";
  let worst: Verdict = "right";
  for (const argv of ran) {
    const text = argv.join(" ");
    if (split.texts.includes(text) || split.open.some((p) => text.startsWith(p))) continue;
    const name = argv[0]!;
    const named = [...split.texts, ...split.open].some(
      (t) => t === name || t.startsWith(`${name} `) || t.includes(`/${name} `),
    );
    if (!named) return "missed";
    worst = "wrong-words";
  }
  return worst;
}

/**
 * Commands that once fooled a splitter, or that a reader must tell apart: quoting and escapes
 * that hide a separator or a program name, substitutions in every position, comments,
 * redirections glued to words, keywords, and code that only looks like it runs.
 */
export const FIXED_CORPUS: readonly string[] = [
  "rm x",
  "r''m x",
  'r""m x',
  "\\rm x",
  "'rm' x",
  '"rm" "a b"',
  "rm 'a;b' c",
  'rm "a\\"b"',
  "rm a\\ b",
  "rm a\\;b",
  'rm "a\\b"',
  "rm 'a\\'",
  "rm $'a\\'b'",
  "rm $'a\\nb'",
  "echo 'x; rm y'",
  'echo "x; rm y"',
  "echo x\\; rm y",
  "echo \\$(rm y)",
  "echo '$(rm y)'",
  'echo "\\$(rm y)"',
  "echo $(rm y)",
  "echo `rm y`",
  'echo "$(rm y)"',
  'echo "`rm y`"',
  "echo $(echo $(rm y))",
  "x=$(rm y)",
  "x=`rm y` git status",
  "echo a#b; rm y",
  "echo #; rm y",
  "echo a #; rm y\nrm z",
  "rm x>f",
  "rm x 2>&1",
  "rm x 2>/dev/null y",
  ">f rm x",
  "rm x >|f",
  "rm x &>f",
  "rm x &>>f",
  "rm x <&-",
  "rm x 3>&-",
  "rm x <<< y",
  "rm x <<EOF\ny\nEOF",
  "rm x <<'EOF'\n$(rm y)\nEOF",
  "cat <<EOF\n$(rm y)\nEOF",
  "rm x && rm y || rm z",
  "false && rm x",
  "true || rm x",
  "rm x | rm y",
  "rm x |& rm y",
  "rm x & wait",
  "(rm x)",
  "( rm x ) && (rm y)",
  "{ rm x; }",
  "{ rm x; rm y; } >f",
  "! rm x",
  "if true; then rm x; fi",
  "if rm x; then :; else rm y; fi",
  "while false; do :; done; rm x",
  "for i in a; do rm $i; done",
  "for i in $(rm x); do :; done",
  "case x in x) rm y;; esac",
  "case x in (x) rm y;; esac",
  "rm x\nrm y",
  "rm x \\\n y",
  "r\\\nm x",
  "true &&\\\n rm x",
  "rm ${HOME}",
  "rm $HOME/x",
  "rm ${x:-y}",
  "rm ${x:-$(rm y)}",
  "A=1 rm x",
  "A=$(rm y) rm x",
  "rm -- -rf",
  "time rm x",
  "command rm x",
  "exec rm x",
  "git push",
  "git 'pu'sh origin",
  "git pu\\sh",
  'git "pu\\sh"',
  "git push\\ origin",
  "git $(echo push)",
  "git `echo push`",
  "git push #origin",
  "git push # origin",
  "git status; git push",
  "touch a b c",
  "touch {a,b}",
  "touch a{1..3}",
  "chmod +x f && touch f",
  "cat <(rm x)",
  "diff <(rm x) >(rm y)",
  "echo $((1+2)); rm x",
  "[ -f x ] || rm x",
  "[[ -f x ]] || rm x",
  "f() { rm x; }; f",
  "rm x; #",
  "rm 'x\ny'",
  'rm "x\ny"',
  "echo $'\\''; rm x",
  "echo '\\''; rm x",
];

/** A word the shell reads as `word`, spelled in one of the ways a reader could miss. */
const spelled = (word: string) =>
  fc
    .constantFrom<(w: string) => string>(
      (w) => w,
      (w) => `'${w}'`,
      (w) => `"${w}"`,
      (w) => `${w.slice(0, 1)}''${w.slice(1)}`,
      (w) => `${w.slice(0, 1)}""${w.slice(1)}`,
      (w) => `\\${w}`,
      (w) => `$'${w}'`,
      (w) => `${w.slice(0, 1)}\\\n${w.slice(1)}`,
      (w) => `"${w.slice(0, 1)}"${w.slice(1)}`,
    )
    .map((f) => f(word));

/** A simple command running a stand-in: its words, each spelled some way. */
const payload = fc
  .constantFrom(
    ["rm", "x"],
    ["rm", "-rf", "x", "y"],
    ["git", "push"],
    ["git", "push", "o"],
    ["touch", "a;b"],
    ["chmod", "+x", "a b"],
  )
  .chain((words) =>
    fc.tuple(...words.map((w) => (/[ ;]/.test(w) ? fc.constant(`'${w}'`) : spelled(w)))),
  )
  .map((words) => words.join(" "));

/** Around one simple command: redirections, assignments, reserved words. */
const simple = fc.constantFrom<(p: string) => string>(
  (p) => p,
  (p) => `${p} >/dev/null`,
  (p) => `${p} 2>&1`,
  (p) => `>f ${p}`,
  (p) => `${p} >|f`,
  (p) => `${p} <<< w`,
  (p) => `A=1 ${p}`,
  (p) => `! ${p}`,
  (p) => `command ${p}`,
  (p) => `${p} # ; rm z`,
);

/** Around any command text. */
const compound = fc.constantFrom<(p: string) => string>(
  (p) => p,
  (p) => `true && ${p}`,
  (p) => `false || ${p}`,
  (p) => `${p} | cat`,
  (p) => `echo | ${p}`,
  (p) => `:; ${p}`,
  (p) => `:\n${p}`,
  (p) => `(${p})`,
  (p) => `{ ${p}; }`,
  (p) => `echo $(${p})`,
  (p) => `echo \`${p}\``,
  (p) => `x=$(${p})`,
  (p) => `if true; then ${p}; fi`,
  (p) => `while ${p}; do break; done`,
  (p) => `for i in 1; do ${p}; done`,
  (p) => `case a in a) ${p};; esac`,
  (p) => `echo "$(${p})"`,
  (p) => `true &&\\\n ${p}`,
  (p) => `cat <(${p})`,
);

/** Generated hostile commands: a payload spelled and wrapped in up to three constructs. */
export const hostileCommand: fc.Arbitrary<string> = fc
  .tuple(payload, simple, fc.array(compound, { minLength: 1, maxLength: 3 }))
  .map(([p, wrap, outer]) => outer.reduce((inner, f) => f(inner), wrap(p)));

/** One reader's tally over a corpus. */
export interface Tally {
  readonly counts: Record<Verdict, number>;
  /** Commands judged "missed" or "wrong-words", for the report. */
  readonly wrong: { command: string; verdict: Verdict }[];
}

/** Shell runs at once in {@link judgeCorpus}: most of a run is waiting on process starts. */
const RUNS_AT_ONCE = 4;

/** What ran for each command, under each shell (union), in the corpus's order. */
export async function judgeCorpus(
  lab: SplitLab,
  commands: readonly string[],
): Promise<Map<string, string[][]>> {
  const runs = commands.flatMap((command) => SHELLS.map((shell) => ({ command, shell })));
  const results: string[][][] = [];
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < runs.length; at = next++) {
      const { command, shell } = runs[at]!;
      results[at] = await lab.ran(command, shell);
    }
  };
  await Promise.all(Array.from({ length: RUNS_AT_ONCE }, worker));
  // Per command, each argument vector once, whichever shell ran it.
  const seen = new Map(commands.map((command) => [command, new Map<string, string[]>()]));
  runs.forEach(({ command }, at) => {
    for (const argv of results[at]!) seen.get(command)!.set(argv.join("\0"), argv);
  });
  return new Map([...seen].map(([command, argvs]) => [command, [...argvs.values()]]));
}

/** Scores `read` over judged commands. */
export function tally(
  judged: ReadonlyMap<string, string[][]>,
  read: (command: string) => SplitCommand | undefined,
): Tally {
  const counts: Record<Verdict, number> = { refused: 0, right: 0, "wrong-words": 0, missed: 0 };
  const wrong: Tally["wrong"] = [];
  for (const [command, ran] of judged) {
    const v = verdict(read(command), ran);
    counts[v]++;
    if (v === "missed" || v === "wrong-words") wrong.push({ command, verdict: v });
  }
  return { counts, wrong };
}
