/**
 * The memory row, in a process of its own (run with --expose-gc): fire an event N times while
 * hooks come and go, and compare the heap after a full GC with the heap before.
 * Prints one JSON line: { fires, before, after, registered, unregistered, audits }.
 */
import { createEvent, HookEngine, type HookHandle, modify } from "@a3s-lab/hooks-core";
import { BenchError } from "../bench-error.js";
import { intFlags } from "./child-args.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new BenchError("CHILD_FAILED", "memory-churn: run node with --expose-gc");

function heapAfterGc(): number {
  // Twice: the first pass can leave objects whose finalisers free more on the second.
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const { fires } = intFlags(process.argv.slice(2), {
  fires: { min: 1, max: 10_000_000, default: 1_000_000 },
});
const engine = new HookEngine({ maxHooksPerEvent: 10, maxTotalHooks: 50 });
let audits = 0;
engine.on("*", () => void audits++);
const live: HookHandle[] = [];
let registered = 0;
let unregistered = 0;

const variants = [
  () =>
    engine.register({ event: "PreToolUse", matcher: "Bash|Write", handler: async () => undefined }),
  () =>
    engine.register({
      event: "PreToolUse",
      matcher: { tool: "Write", pathPattern: "**/*.ts" },
      handler: () => undefined,
    }),
  () =>
    engine.register({
      event: "PreToolUse",
      handler: () => modify({ args: { command: "ls -la" } }),
    }),
  () => engine.register({ event: "PreToolUse", once: true, handler: async () => undefined }),
  () => {
    const controller = new AbortController();
    const handle = engine.register({
      event: "PostToolUse",
      signal: controller.signal,
      handler: () => undefined,
    });
    // Removed by its signal, not by unregister: that path must drop its references too.
    const unregister = () => {
      controller.abort();
      return true;
    };
    return { ...handle, unregister } as HookHandle;
  },
];

function churn(i: number): void {
  if (live.length >= 6) {
    live.shift()!.unregister();
    unregistered++;
  }
  live.push(variants[i % variants.length]!());
  registered++;
}

const bash = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "ls" } });
const post = () =>
  createEvent("PostToolUse", {
    sessionId: "s1",
    tool: "Bash",
    args: { command: "ls" },
    result: { success: true, output: "ok", duration: 1 },
  });

async function run(count: number, from: number): Promise<void> {
  const controller = new AbortController();
  for (let i = from; i < from + count; i++) {
    if (i % 1000 === 0) churn(i / 1000);
    const event = i % 3 === 0 ? post() : bash();
    await engine.fire(event, i % 100 === 0 ? { signal: controller.signal } : undefined);
  }
}

for (let i = 0; i < 6; i++) churn(i);
// Warm up first, so code the JIT makes and one-off caches are part of "before", not growth.
await run(Math.min(20_000, fires), 0);
const before = heapAfterGc();
await run(fires, 20_000);
const after = heapAfterGc();
process.stdout.write(
  `${JSON.stringify({ fires, before, after, registered, unregistered, audits, live: engine.size() })}\n`,
);
