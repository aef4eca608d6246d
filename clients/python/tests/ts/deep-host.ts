/**
 * A host with a hook server and nothing else: it fires a PreToolUse for Bash whose args nest as
 * deep as asked, so a test can send a client what no agent tool would. Prints
 * "listening on <address>", then for each stdin line "<depth> <command>" fires one event and
 * prints its result as one JSON line (action, reason, and the stopTurn of a deferred call).
 * usage: deep-host.ts <token>
 */
import { createInterface } from "node:readline";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer } from "@a3s-lab/hooks-node";

const [token] = process.argv.slice(2);
const engine = new HookEngine();
const server = await createHookServer({ engine, token, port: 0 });
console.log(`listening on ${server.address}`);

for await (const line of createInterface({ input: process.stdin })) {
  const [depth, ...words] = line.split(" ");
  let nested: unknown = "leaf";
  for (let i = 0; i < Number(depth); i++) nested = { a: nested };
  const event = createEvent("PreToolUse", {
    sessionId: "deep",
    tool: "Bash",
    args: { command: words.join(" "), nested },
  });
  const result = await engine.fire(event, { timeoutMs: 5000 });
  const stop = result.stopTurn ? { stopTurn: result.stopTurn } : {};
  console.log(JSON.stringify({ action: result.action, reason: result.reason ?? null, ...stop }));
}
await server.close();
