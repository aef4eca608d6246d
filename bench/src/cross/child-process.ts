import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchError } from "../bench-error.js";

/** The scripts in `src/children/`, each run in a process of its own. */
export type ChildName = "memory-churn" | "grpc-echo-client" | "ws-echo-client" | "hook-client";

const benchRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * How to start a child script. A benchmark run (`run.mjs`) bundles the children next to the
 * main script and says where in `A3S_BENCH_DIST`, as the tests do with bundles of their own
 * (src/test-programs.ts); without it, the TypeScript source runs through tsx. Under
 * `pnpm bench --cpu-prof` every child writes a CPU profile too (`A3S_BENCH_CPU_PROF`).
 */
export function childCommand(name: ChildName, extraFlags: readonly string[] = []): string[] {
  const dist = process.env.A3S_BENCH_DIST;
  const profileDir = process.env.A3S_BENCH_CPU_PROF;
  const nodeFlags = profileDir
    ? [...extraFlags, "--cpu-prof", `--cpu-prof-dir=${profileDir}`]
    : extraFlags;
  if (dist) return [process.execPath, ...nodeFlags, join(dist, `${name}.mjs`)];
  const source = fileURLToPath(new URL(`../children/${name}.ts`, import.meta.url));
  return [
    process.execPath,
    ...nodeFlags,
    "--conditions=@a3s-lab/source",
    "--import",
    "tsx",
    source,
  ];
}

export interface ChildOptions {
  args?: readonly string[];
  nodeFlags?: readonly string[];
  /** Milliseconds to wait for the first line (a long-running child) or the exit (a one-shot one). */
  timeoutMs?: number;
  /** Added to this process's environment (secrets go here, never on the command line). */
  env?: Readonly<Record<string, string>>;
}

/** A running child that printed its ready line. */
export interface ChildHandle {
  /** The JSON object of the child's first stdout line. */
  readonly ready: Record<string, unknown>;
  readonly process: ChildProcess;
  /** End the child (closing its stdin, then SIGKILL if it lingers) and wait for it to exit. */
  stop(): Promise<void>;
}

function parseLine(name: string, line: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Reported below with the line itself.
  }
  throw new BenchError(
    "CHILD_FAILED",
    `${name}: expected a JSON object line, got ${JSON.stringify(line.slice(0, 200))}`,
  );
}

function launch(name: ChildName, options: ChildOptions): ChildProcess {
  const [cmd, ...args] = childCommand(name, options.nodeFlags);
  return spawn(cmd!, [...args, ...(options.args ?? [])], {
    cwd: benchRoot,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
}

/**
 * Start a long-running child (an echo peer, a hook client) and wait for its first stdout line,
 * a JSON object. The child ends when its stdin closes, so a crashed benchmark leaves no orphan.
 */
export function startChild(name: ChildName, options: ChildOptions = {}): Promise<ChildHandle> {
  const child = launch(name, options);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = async () => {
    child.stdin!.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<ChildHandle>((resolve, reject) => {
    let buffer = "";
    const fail = (error: BenchError) => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.kill("SIGKILL");
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new BenchError(
            "TIMEOUT",
            `${name}: no ready line within ${options.timeoutMs ?? 20_000} ms${stderr ? `: ${stderr.trim()}` : ""}`,
          ),
        ),
      options.timeoutMs ?? 20_000,
    );
    const onData = (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline < 0) {
        if (buffer.length > 65_536)
          fail(new BenchError("CHILD_FAILED", `${name}: ready line longer than 64 KiB`));
        return;
      }
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.off("close", onEarlyExit);
      try {
        resolve({ ready: parseLine(name, buffer.slice(0, newline)), process: child, stop });
      } catch (error) {
        child.kill("SIGKILL");
        reject(error);
      }
    };
    const onEarlyExit = (code: number | null) =>
      fail(
        new BenchError(
          "CHILD_FAILED",
          `${name}: exited with ${code} before it was ready${stderr ? `: ${stderr.trim()}` : ""}`,
        ),
      );
    child.stdout!.setEncoding("utf8").on("data", onData);
    child.once("close", onEarlyExit);
    child.once("error", (error) =>
      fail(new BenchError("CHILD_FAILED", `${name}: ${error.message}`, { cause: error })),
    );
  });
}

/** Run a one-shot child to its end and return the JSON object of its last stdout line. */
export function runChild(
  name: ChildName,
  options: ChildOptions = {},
): Promise<Record<string, unknown>> {
  const child = launch(name, options);
  child.stdin!.end();
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout = (stdout + chunk).slice(-65_536);
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new BenchError("TIMEOUT", `${name}: did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new BenchError("CHILD_FAILED", `${name}: ${error.message}`, { cause: error }));
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(
          new BenchError(
            "CHILD_FAILED",
            `${name}: exited with ${code}${stderr ? `: ${stderr.trim()}` : ""}`,
          ),
        );
        return;
      }
      const last = stdout.trimEnd().split("\n").pop() ?? "";
      try {
        resolve(parseLine(name, last));
      } catch (error) {
        reject(error);
      }
    });
  });
}
