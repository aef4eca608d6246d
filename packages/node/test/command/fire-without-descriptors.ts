/**
 * Fires one PreToolUse at a command hook while this process is out of file descriptors, and
 * prints what the engine decided and audited as one JSON line. Run by command-hook.test.ts
 * with `ulimit -n` low, so running out takes a few dozen `open` calls. argv[2] is the hook's
 * fail behaviour.
 */
import { closeSync, openSync } from "node:fs";
import { createEvent, type FailBehavior, HookEngine } from "@a3s-lab/hooks-core";
import { CommandHook } from "../../src/handlers/command/command-hook.js";

const failBehavior = (process.argv[2] ?? "continue") as FailBehavior;
const engine = new HookEngine();
const hook = new CommandHook({ command: "exit 0", name: "guard", failBehavior });
engine.register(hook.registration({ event: "PreToolUse" }));
const failures: string[] = [];
engine.on("failed", (record) => failures.push(record.message));

const fire = () =>
  engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }));
// Once with descriptors to spare, so every module the firing needs is loaded before they run out.
await fire();

const held: number[] = [];
for (;;) {
  try {
    held.push(openSync("/dev/null", "r"));
  } catch {
    break;
  }
}
// Two to spare: too few for the pipes a spawn needs, enough for anything else loaded meanwhile.
for (const fd of held.splice(-2)) closeSync(fd);
const result = await fire().catch((error: unknown) => ({
  action: "threw",
  reason: String(error),
  outcomes: [],
}));
for (const fd of held) closeSync(fd);
process.stdout.write(
  `${JSON.stringify({
    action: result.action,
    reason: result.reason,
    statuses: result.outcomes.map((o) => o.status),
    failures,
  })}\n`,
);
