import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { programArgs } from "../../../../test-support/program-bundles.ts";
import type { HookServerOptions } from "../../src/server/create-hook-server.js";

export interface ChildOptions {
  server: Partial<Omit<HookServerOptions, "engine" | "timers" | "credentials" | "agent">>;
  /** A PreToolUse command hook that blocks every tool. */
  blockingCommandHook?: boolean;
  /** Start the server with `ulimit -n` set to this. */
  fdLimit?: number;
}

export interface HookServerChild {
  port: number;
  address: string;
  /** Live bytes (heap + external) after a full GC. */
  memory(): Promise<number>;
  /** Fire a PreToolUse in the server's engine. */
  fire(): Promise<{
    action: string;
    reason?: string;
    outcomes: { name?: string; error?: string }[];
  }>;
  /** Fire `count` PreToolUse events of about `bytes` each at once: `action: error…` of each. */
  fireMany(count: number, bytes: number): Promise<string[]>;
  process: ChildProcess;
}

const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.stdin?.end();
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        }),
    ),
  );
});

/**
 * A hook server in its own process (hook-server-process.ts), on a free loopback port, stopped
 * after the test. Memory figures are the server's alone, not the attacking test's.
 */
export async function startHookServerProcess(options: ChildOptions): Promise<HookServerChild> {
  // hook-server-process.ts, bundled once per run (test/programs.ts).
  const node = [process.execPath, "--expose-gc", ...programArgs("hook-server-process")];
  const quoted = [...node, JSON.stringify(options)].map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  const ulimit = options.fdLimit === undefined ? "" : `ulimit -n ${options.fdLimit} && `;
  const child = spawn("sh", ["-c", `${ulimit}exec ${quoted.join(" ")}`], {
    stdio: ["pipe", "pipe", "inherit"],
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
  });
  children.push(child);
  child.stdout!.setEncoding("utf8");
  let buffered = "";
  const waiting = new Map<number, (line: { result?: unknown; error?: string }) => void>();
  let onPort!: (port: number) => void;
  const portReady = new Promise<number>((resolve, reject) => {
    onPort = resolve;
    child.once("exit", (code) => reject(new Error(`the server process exited (${code})`)));
  });
  child.stdout!.on("data", (chunk: string) => {
    buffered += chunk;
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = JSON.parse(buffered.slice(0, i)) as {
        port?: number;
        id?: number;
        result?: unknown;
        error?: string;
      };
      buffered = buffered.slice(i + 1);
      if (line.port !== undefined) onPort(line.port);
      else if (line.id !== undefined) waiting.get(line.id)?.(line);
    }
  });
  let next = 0;
  const ask = <T>(op: string, args: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, (line) => {
        waiting.delete(id);
        if (line.error) reject(new Error(line.error));
        else resolve(line.result as T);
      });
      child.stdin!.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  const port = await portReady;
  return {
    port,
    address: `127.0.0.1:${port}`,
    memory: () => ask<{ live: number }>("memory").then((m) => m.live),
    fire: () => ask("fire"),
    fireMany: (count, bytes) => ask("fireMany", { count, bytes }),
    process: child,
  };
}
