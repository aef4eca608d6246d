import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { programArgs as sharedProgramArgs } from "../../../test-support/program-bundles.ts";
import { PROGRAMS, type ProgramName } from "./bundle-programs.js";

/** The app's folder, and its CLI entry. */
export const APP_DIR = fileURLToPath(new URL("..", import.meta.url));
export const CLI = PROGRAMS.demo;
const TSX = pathToFileURL(createRequire(path.join(APP_DIR, "package.json")).resolve("tsx")).href;

/**
 * Node arguments that run a TypeScript file of this workspace from source through tsx: the
 * path `pnpm start` and the `a3s-demo-agent` bin take. It transpiles the app and every package
 * on each start (a second or two of CPU), so tests start the bundles instead
 * (`programArgs`) and keep this for the tests of that path.
 */
export function tsNodeArgs(file: string, args: readonly string[] = []): string[] {
  return ["--conditions=@a3s-lab/source", "--import", TSX, file, ...args];
}

/**
 * Node arguments that run one of the workspace's programs (`PROGRAMS`): its bundle, built from
 * source once per test run by the global setup (`bundle-programs.ts`).
 */
export function programArgs(program: ProgramName, args: readonly string[] = []): string[] {
  return sharedProgramArgs(program, args);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Start the demo CLI (or `options.program`, another program of the workspace) as a real process. */
export function startCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; program?: ProgramName } = {},
): ChildProcess {
  return spawn(process.execPath, programArgs(options.program ?? "demo", args), {
    cwd: options.cwd ?? APP_DIR,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Run the demo CLI (or `options.program`) to the end, feeding `input` on stdin. */
export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; program?: ProgramName } = {},
): Promise<CliRun> {
  const child = startCli(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdin!.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The records of a JSON Lines file. */
export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/**
 * Collects a stream's lines and waits for the next one that matches: the signal that a running
 * process did something, instead of a sleep. Lines seen before `next` was called count only if
 * not yet taken.
 */
export class LineWaiter {
  readonly lines: string[] = [];
  #taken = 0;
  #waiting: { pattern: RegExp; resolve: (line: string) => void } | undefined;
  #buffer = "";

  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split("\n");
      this.#buffer = parts.pop()!;
      this.lines.push(...parts);
      this.#check();
    });
  }

  /** The next line (after those already taken) that matches `pattern`. */
  next(pattern: RegExp): Promise<string> {
    return new Promise((resolve) => {
      this.#waiting = { pattern, resolve };
      this.#check();
    });
  }

  #check(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    for (; this.#taken < this.lines.length; this.#taken++) {
      const line = this.lines[this.#taken]!;
      if (waiting.pattern.test(line)) {
        this.#taken++;
        this.#waiting = undefined;
        waiting.resolve(line);
        return;
      }
    }
  }
}
