/**
 * A TypeScript client beside the Python one: one PreToolUse hook on Bash at the given priority
 * that rewrites the command to `echo from-ts`. Prints "ready" once the agent holds it, and
 * closes (unregistering it) when stdin ends.
 * usage: ts-hook.ts <address> <token> <priority>
 */
import { A3sClient, HookResponse } from "@a3s-lab/box";

const [address, token, priority] = process.argv.slice(2);
const client = new A3sClient({ address, token });
client.registerHook("PreToolUse", {
  matcher: { tool: "Bash" },
  config: { priority: Number(priority), name: "ts-rewrite" },
  handler: () => HookResponse.modify({ args: { command: "echo from-ts" } }),
});
await client.ready();
console.log("ready");
process.stdin.resume();
process.stdin.on("end", () => void client.close().then(() => process.exit(0)));
