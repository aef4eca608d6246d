/**
 * The repository README's "More to try" commands, run as a user pastes them: from the
 * repository root, through the root package.json's scripts, with pnpm. Options a test needs
 * (a temporary working directory) are added after the command, as a user would add them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { A3sClient } from "@a3s-lab/box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Start-up goes through pnpm and compiles TypeScript with tsx: seconds, more on a busy machine. */
const STARTUP_MS = 45_000;
const STOP_MS = 10_000;

/** The command lines of the README's "More to try" block, comments left out. */
function moreToTry(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const part = readme.split(/^## /m).find((section) => section.startsWith("More to try")) ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(part)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** The README's line that runs the root script `script`. */
function readmeLine(script: string): string {
  const line = moreToTry().find((l) => l.split(" ")[1] === script);
  if (line === undefined) throw new Error(`the README's "More to try" has no pnpm ${script}`);
  return line;
}

let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "a3s-root-readme-")));
  await mkdir(path.join(tmp, "home", ".claude"), { recursive: true });
  await mkdir(path.join(tmp, "work"));
  const bin = path.join(tmp, "bin");
  await mkdir(bin);
  // `pnpm test` has a pnpm on the PATH; run on its own, the test uses the README's own way in.
  // The shim keeps npm's cache where it is, since HOME below is an empty folder.
  if (spawnSync("pnpm", ["--version"]).error) {
    const cache = path.join(os.homedir(), ".npm");
    await writeFile(
      path.join(bin, "pnpm"),
      `#!/bin/sh\nNPM_CONFIG_CACHE=${JSON.stringify(cache)} exec npx -y pnpm@10 "$@"\n`,
    );
    await chmod(path.join(bin, "pnpm"), 0o755);
  }
  env = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    // An empty home: the user's own ~/.claude/settings.json stays out, the test's goes in.
    HOME: path.join(tmp, "home"),
    NO_COLOR: "1",
    FORCE_COLOR: undefined,
    A3S_ADDRESS: undefined,
    A3S_TOKEN: undefined,
    A3S_MODEL: undefined,
  };
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

/** Run a shell line from the repository root in its own process group. */
function start(line: string, extraEnv: NodeJS.ProcessEnv = {}, input?: string): Started {
  const child = spawn("sh", ["-c", line], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    // Its own group: pnpm, tsx and the program they start are stopped together.
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  if (input !== undefined) child.stdin!.end(input);
  return { child, stdout: () => stdout, stderr: () => stderr };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Resolves with the first match of `pattern` in what `read` returns, as output arrives. */
function waitFor(run: Started, read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (match) done(() => resolve(match));
    };
    const fail = (why: string) =>
      done(() => reject(new Error(`${why}\nstdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`)));
    const onExit = (code: number | null) => fail(`exited (${code}) before printing ${pattern}`);
    const timer = setTimeout(() => fail(`no ${pattern} within ${STARTUP_MS} ms`), STARTUP_MS);
    const done = (then: () => void) => {
      clearTimeout(timer);
      run.child.stdout!.off("data", check);
      run.child.stderr!.off("data", check);
      run.child.off("exit", onExit);
      then();
    };
    run.child.stdout!.on("data", check);
    run.child.stderr!.on("data", check);
    run.child.once("exit", onExit);
    check();
  });
}

/** SIGTERM the whole group, SIGKILL it if it is still there after STOP_MS. */
async function stop(run: Started): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-run.child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), STOP_MS);
  await exited(run.child);
  clearTimeout(timer);
}

describe("the README's Quick start", () => {
  it(
    "pnpm demo plays the scenario and fires every event",
    async () => {
      const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
      expect(readme).toContain("npx -y pnpm@10 install && npx -y pnpm@10 demo");
      const run = start("pnpm demo");
      const code = await exited(run.child);
      expect(run.stdout()).toMatch(/^(\d+) of \1 events fired/m);
      expect(code, run.stderr()).toBe(0);
    },
    STARTUP_MS,
  );
});

/** The fenced block after `<!-- marker -->` in the README. */
function markedBlock(marker: string): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const block = new RegExp(`<!-- ${marker} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!block) throw new Error(`the README has no block marked ${marker}`);
  return block[1]!;
}

describe("the README's first hook", () => {
  it(
    "blocks the agent's rm -rf, run exactly as written (the chat reading the piped prompt)",
    async () => {
      const script = markedBlock("recipe:first-hook");
      // mktemp -d makes the recipe's folder inside the test's own (TMPDIR), removed afterwards.
      const scratch = path.join(tmp, "first-hook");
      await mkdir(scratch);
      const run = start(script, { TMPDIR: scratch });
      const code = await exited(run.child);
      expect(code, run.stderr()).toBe(0);
      // What the README shows is what the chat printed, line for line.
      const shown = markedBlock("recipe:first-hook:output").split("\n").filter(Boolean);
      const printed = run.stdout().split("\n");
      for (const line of shown) expect(printed, run.stdout()).toContain(line);
    },
    STARTUP_MS * 2,
  );
});

describe("the README's More to try", () => {
  it("shows only root scripts, each run through pnpm", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const lines = moreToTry();
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      expect(line, line).toMatch(/^pnpm [a-z0-9-]+( |$)/);
      expect(Object.keys(scripts), line).toContain(line.split(" ")[1]);
    }
  });

  it(
    "pnpm a3s-hooks test fires the user's Claude Code hook scripts without an agent",
    async () => {
      await writeFile(
        path.join(tmp, "home", ".claude", "settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  {
                    type: "command",
                    command: "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0",
                  },
                ],
              },
            ],
          },
        }),
      );
      try {
        const run = start(readmeLine("a3s-hooks"));
        const code = await exited(run.child);
        expect(run.stdout()).toContain("Result: block: no rm -rf here");
        expect(code, run.stderr()).toBe(2);
      } finally {
        await rm(path.join(tmp, "home", ".claude", "settings.json"), { force: true });
      }
    },
    STARTUP_MS,
  );

  it(
    "pnpm chat answers prompts piped on stdin and ends the session at EOF",
    async () => {
      const run = start(
        `${readmeLine("chat")} --workdir ${JSON.stringify(`${tmp}/work`)}`,
        {},
        "say: hello there\n",
      );
      const code = await exited(run.child);
      expect(run.stdout()).toContain("◆ hello there");
      expect(run.stdout()).toMatch(/session \w+ ended/);
      expect(code, run.stderr()).toBe(0);
    },
    STARTUP_MS,
  );

  it(
    "pnpm serve --ui serves the page, and pnpm example security-policy hooks into that agent",
    async () => {
      const token = randomBytes(18).toString("base64url");
      const serve = start(`${readmeLine("serve")} --workdir ${JSON.stringify(`${tmp}/work`)}`, {
        A3S_TOKEN: token,
      });
      let example: Started | undefined;
      try {
        const [, address] = await waitFor(serve, serve.stdout, /^listening on (\S+)$/m);
        const [, page] = await waitFor(serve, serve.stderr, /^ui: (http:\/\/127\.0\.0\.1:\d+\/)/m);
        const res = await fetch(page!);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("text/html");

        // Another terminal, with serve's address and token, as the README says.
        example = start(readmeLine("example"), { A3S_ADDRESS: address, A3S_TOKEN: token });
        // The example's client reports ready once its hook has reached the agent.
        await waitFor(example, example.stderr, /^\[security-policy\] ready$/m);

        const agent = new A3sClient({ address: address!, token });
        try {
          const session = await agent.createSession();
          const victim = path.join(tmp, "victim");
          await mkdir(victim);
          // The demo's own rule stops only `rm -rf /`: this one is the example's to stop.
          const result = await agent.executeTool(session, "Bash", { command: `rm -rf ${victim}` });
          expect(result).toMatchObject({
            blocked: true,
            reason: "Blocked by a hook: Blocked dangerous command matching /rm\\s+-rf\\s+\\//",
          });
          expect(existsSync(victim)).toBe(true);
        } finally {
          await agent.close();
        }
      } finally {
        if (example) await stop(example);
        await stop(serve);
      }
    },
    STARTUP_MS * 2,
  );
});
