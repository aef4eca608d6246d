/**
 * A short tour: register hooks, fire events, print the merged decisions.
 * Run it with `pnpm demo` from the repository root.
 */
import { block, createEvent, HookEngine, modify } from "@a3s-lab/hooks-core";

const engine = new HookEngine();

// 1. Block dangerous shell commands.
engine.register({
  event: "PreToolUse",
  matcher: "Bash",
  name: "no-rm-rf",
  handler: (event) => {
    const command = String(event.args.command ?? "");
    if (/rm\s+-rf\s+\//.test(command)) return block("Dangerous command blocked by security policy");
  },
});

// 2. Rewrite arguments: give every Bash command a 30 s timeout.
engine.register({
  event: "PreToolUse",
  matcher: { tool: "Bash" },
  name: "bash-timeout",
  handler: () => modify({ args: { timeout: 30_000 } }),
});

// 3. Refuse to write API keys into .env files.
engine.register({
  event: "PreToolUse",
  matcher: { tool: "Write", pathPattern: "*.env" },
  name: "no-secrets-in-env",
  handler: (event) =>
    String(event.args.content).includes("API_KEY=")
      ? block("Cannot write API keys to .env files")
      : undefined,
});

const calls = [
  { tool: "Bash", args: { command: "ls -la" } },
  { tool: "Bash", args: { command: "rm -rf /" } },
  { tool: "Write", args: { file_path: "config/.env", content: "API_KEY=sk-123" } },
  { tool: "Write", args: { file_path: "README.md", content: "hello" } },
];

for (const call of calls) {
  const result = await engine.fire(createEvent("PreToolUse", { sessionId: "demo", ...call }));
  const decision =
    result.action === "block" ? `BLOCK (${result.reason})` : result.action.toUpperCase();
  console.log(`${call.tool.padEnd(6)} ${JSON.stringify(call.args).padEnd(58)} → ${decision}`);
  if (result.modified) console.log(`       args became ${JSON.stringify(result.event.args)}`);
}
