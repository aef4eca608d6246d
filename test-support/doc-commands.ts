import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * One step of a document, in the order a reader meets it:
 * - a block whose info string names a file (```` ```json file=~/my-project/.claude/settings.json ````)
 *   is written there before the commands after it run;
 * - each line of a ```` ```sh ```` block is a command, run as the reader pastes it;
 * - a ```` ```text ```` block right after a command block is what its last command prints.
 */
export type DocStep =
  | { kind: "file"; file: string; content: string }
  | { kind: "command"; line: string; expect: string[]; exitCode: number; untilStopped: boolean };

/**
 * A command line's own comment says how it ends: `# exits 2` for an exit code other than 0,
 * `# runs until Ctrl-C` for a server (the test waits for its output, then stops it).
 */
const EXITS = /#.*\bexits (\d+)/;
const UNTIL_STOPPED = /#.*\buntil Ctrl-C\b/;

/** The steps of a Markdown document. */
export function docSteps(markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  let lastCommand: Extract<DocStep, { kind: "command" }> | undefined;
  for (const m of markdown.matchAll(/```([^\n]*)\n([\s\S]*?)```\n?([ \t]*\n)?/g)) {
    const [info, body] = [m[1]!.trim(), m[2]!];
    const file = /\bfile=(\S+)/.exec(info)?.[1];
    if (file !== undefined) {
      steps.push({ kind: "file", file, content: body });
      lastCommand = undefined;
    } else if (info === "sh") {
      for (const line of body.split("\n").map((l) => l.trim())) {
        if (line === "" || line.startsWith("#")) continue;
        lastCommand = {
          kind: "command",
          line,
          expect: [],
          exitCode: Number(EXITS.exec(line)?.[1] ?? 0),
          untilStopped: UNTIL_STOPPED.test(line),
        };
        steps.push(lastCommand);
      }
    } else if (info === "text" && lastCommand && lastCommand.expect.length === 0) {
      lastCommand.expect = body.split("\n").filter((l) => l.trim() !== "");
    } else {
      lastCommand = undefined;
    }
  }
  return steps;
}

/** `…` in an expected line stands for any text; the rest is literal. */
function linePattern(expected: string): RegExp {
  const parts = expected
    .trimEnd()
    .split("…")
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`);
}

/**
 * The first expected line that does not match a line of `output` (a whole line, leading spaces
 * included), or -1 when they all match. `ordered`: each after the one before it.
 */
export function firstUnmatched(
  expected: readonly string[],
  output: string,
  ordered = true,
): number {
  const lines = output.split("\n").map((l) => l.trimEnd());
  let at = 0;
  for (const [i, want] of expected.entries()) {
    const pattern = linePattern(want);
    if (!ordered) at = 0;
    while (at < lines.length && !pattern.test(lines[at]!)) at++;
    if (at === lines.length) return i;
    at++;
  }
  return -1;
}

interface Running {
  child: ChildProcess;
  output: () => string;
}

/** Stop a command's whole process group (pnpm, tsx and the program they started). */
async function stop(run: Running, graceMs: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-run.child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  if (run.child.exitCode !== null || run.child.signalCode !== null) return;
  const exited = new Promise((resolve) => run.child.once("exit", resolve));
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** `word` as one word of a POSIX shell command line, single-quoted. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Run the shell commands of each document as a reader would, from `root`, with `HOME` an empty
 * temporary folder (so `~/my-project` is a fresh project and the user's own settings stay out),
 * writing the files the document shows first. Each document's steps run in order, sharing
 * that home.
 */
export function describeDocCommands(options: {
  documents: readonly URL[];
  /** The folder commands run in (the repository root, for `pnpm <script>`). */
  root: string;
  /** How long one command may take, pnpm and TypeScript start-up included. */
  commandTimeoutMs?: number;
  /** At least this many commands must be found (in all the documents together). */
  minCommands?: number;
  /**
   * `pnpm <script>` commands to run as the given command line instead: the built program that
   * the script runs from source (the same program, without pnpm's and tsx's start-up on every
   * command). Scripts not listed, and all of them when this is left out, run through pnpm.
   */
  scripts?: Readonly<Record<string, readonly string[]>>;
}): void {
  const timeoutMs = options.commandTimeoutMs ?? 60_000;
  const documents = options.documents.map((url) => {
    const file = fileURLToPath(url);
    return { name: path.basename(file), steps: docSteps(readFileSync(file, "utf8")) };
  });
  let tmp: string;
  let bin: string;

  beforeAll(() => {
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-doc-commands-")));
    bin = path.join(tmp, "bin");
    mkdirSync(bin);
    // `pnpm test` has a pnpm on the PATH; run on its own, the test uses the README's way in.
    // npm's cache stays where it is, since HOME is an empty folder.
    const found = spawnSync("sh", ["-c", "command -v pnpm"], { encoding: "utf8" });
    const pnpm =
      found.status === 0 && found.stdout.trim() !== ""
        ? `exec ${shellWord(found.stdout.trim())} "$@"`
        : `NPM_CONFIG_CACHE=${shellWord(path.join(os.homedir(), ".npm"))} exec npx -y pnpm@10 "$@"`;
    const cases = Object.entries(options.scripts ?? {}).map(
      ([script, argv]) =>
        `  ${shellWord(script)}) shift; exec ${argv.map(shellWord).join(" ")} "$@" ;;\n`,
    );
    const body = cases.length === 0 ? pnpm : `case "$1" in\n${cases.join("")}esac\n${pnpm}`;
    writeFileSync(path.join(bin, "pnpm"), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, "pnpm"), 0o755);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it(`the documents show at least ${options.minCommands ?? 1} commands`, () => {
    const commands = documents.flatMap((d) => d.steps.filter((s) => s.kind === "command"));
    expect(commands.length).toBeGreaterThanOrEqual(options.minCommands ?? 1);
  });

  for (const { name, steps } of documents) {
    if (!steps.some((s) => s.kind === "command")) continue;
    describe(name, () => {
      let home: string;
      beforeAll(() => {
        home = path.join(tmp, name.replace(/\.md$/, ""));
        mkdirSync(home);
      });

      for (const step of steps) {
        if (step.kind === "file") {
          it(`writes ${step.file}`, () => {
            const file = step.file.replace(/^~(?=\/)/, home);
            expect(path.isAbsolute(file), `${step.file} is under ~/`).toBe(true);
            mkdirSync(path.dirname(file), { recursive: true });
            writeFileSync(file, step.content);
          });
          continue;
        }
        it(step.line, { timeout: timeoutMs * 2 }, async () => {
          if (step.untilStopped)
            expect(step.expect, "what it prints once it is ready").not.toEqual([]);
          const child = spawn("sh", ["-c", step.line], {
            cwd: options.root,
            env: {
              ...process.env,
              PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
              HOME: home,
              NO_COLOR: "1",
              FORCE_COLOR: undefined,
              A3S_ADDRESS: undefined,
              A3S_TOKEN: undefined,
              A3S_MODEL: undefined,
            },
            stdio: ["ignore", "pipe", "pipe"],
            detached: true,
          });
          let output = "";
          const run: Running = { child, output: () => output };
          const collect = (chunk: string) => {
            output += chunk;
            if (step.untilStopped && firstUnmatched(step.expect, output, false) === -1)
              void stop(run, 5_000);
          };
          child.stdout!.setEncoding("utf8").on("data", collect);
          child.stderr!.setEncoding("utf8").on("data", collect);
          const timer = setTimeout(() => void stop(run, 5_000), timeoutMs);
          const code = await new Promise<number | null>((resolve) =>
            child.once("close", (c) => resolve(c)),
          );
          clearTimeout(timer);
          // A server's stdout and stderr arrive through two pipes, in no set order.
          const missing = firstUnmatched(step.expect, output, !step.untilStopped);
          expect(
            missing,
            missing === -1 ? "" : `no line "${step.expect[missing]}" in order in:\n${output}`,
          ).toBe(-1);
          if (!step.untilStopped) expect(code, output).toBe(step.exitCode);
        });
      }
    });
  }
}
