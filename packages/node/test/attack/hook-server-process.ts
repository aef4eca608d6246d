/**
 * A hook server in a process of its own, so an attack can measure the server alone: its live
 * memory, and its file descriptors under a low `ulimit -n`. Started by
 * `startHookServerProcess()` (hook-server-child.ts) with its options as JSON in argv[2]; prints
 * `{"port": n}` once listening, then answers one JSON line per request line on stdin.
 */
import { createInterface } from "node:readline";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { CommandHook } from "../../src/handlers/command/command-hook.js";
import { createHookServer, type HookServerOptions } from "../../src/server/create-hook-server.js";

interface ChildOptions {
  server: Omit<HookServerOptions, "engine">;
  /** Register a PreToolUse command hook that blocks every tool (exit 2, reason on stderr). */
  blockingCommandHook?: boolean;
}

const options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;
const engine = new HookEngine();
if (options.blockingCommandHook) {
  const hook = new CommandHook({ command: "echo blocked by the command hook >&2; exit 2" });
  engine.register(hook.registration({ event: "PreToolUse", failBehavior: "continue" }));
}
const server = await createHookServer({ engine, port: 0, ...options.server });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);

const gc = (globalThis as { gc?: () => void }).gc;

const fire = (bytes: number) =>
  engine.fire(
    createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Bash",
      args: { command: bytes > 0 ? "x".repeat(bytes) : "ls" },
    }),
  );

async function handle(op: string, args: { count?: number; bytes?: number }): Promise<unknown> {
  if (op === "memory") {
    // Live bytes only: what the server still holds, not what the allocator kept.
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const m = process.memoryUsage();
    return { live: m.heapUsed + m.external, rss: m.rss };
  }
  if (op === "fireMany") {
    const results = await Promise.all(
      Array.from({ length: args.count ?? 1 }, () => fire(args.bytes ?? 0)),
    );
    return results.map((r) =>
      [r.action, ...r.outcomes.map((o) => o.error?.message ?? "answered")].join(": "),
    );
  }
  if (op === "fire") {
    const result = await fire(0);
    return {
      action: result.action,
      reason: result.reason,
      outcomes: result.outcomes.map((o) => ({ name: o.name, error: o.error?.message })),
    };
  }
  throw new Error(`unknown op ${op}`);
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { id, op, ...args } = JSON.parse(line) as { id: number; op: string };
  handle(op, args).then(
    (result) => process.stdout.write(`${JSON.stringify({ id, result })}\n`),
    (error: unknown) => process.stdout.write(`${JSON.stringify({ id, error: String(error) })}\n`),
  );
});
lines.on("close", () => {
  void server.close().then(() => process.exit(0));
});
