/**
 * Run one of the examples against an agent: it registers the hooks and serves them until
 * Ctrl-C. The agent's address and token come from A3S_ADDRESS and A3S_TOKEN.
 *
 *   pnpm --filter @a3s-lab/examples start security-policy
 *
 * The adapter examples run on their own, offline, and exit:
 *
 *   pnpm --filter @a3s-lab/examples start claude-agent-sdk
 *   pnpm --filter @a3s-lab/examples start mcp-proxy
 *   pnpm --filter @a3s-lab/examples start ai-sdk
 */
import { createInterface } from "node:readline/promises";
import { A3sClient } from "@a3s-lab/box";
import { offlineAgent } from "./ai-sdk.js";
import { autoFormat } from "./auto-format.js";
import { claudeAgentSdkSession } from "./claude-agent-sdk.js";
import { costTracking } from "./cost-tracking.js";
import { mcpProxySession } from "./mcp-proxy.js";
import { permissionEscalation } from "./permission-escalation.js";
import { securityPolicy } from "./security-policy.js";

const examples: Record<string, (client: A3sClient) => void> = {
  "security-policy": (client) => void securityPolicy(client),
  "auto-format": (client) => void autoFormat(client),
  "cost-tracking": (client) => void costTracking(client),
  "permission-escalation": (client) =>
    void permissionEscalation(client, async ({ title, message }) => {
      // A terminal stands in for the seed's confirmation dialog.
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const answer = await rl.question(`${title}\n${message}\n[y/N] `);
      rl.close();
      return /^y(es)?$/i.test(answer.trim());
    }),
};

/** Examples that need no agent: they run, print what happened, and exit. */
const offline: Record<string, () => Promise<unknown>> = {
  "claude-agent-sdk": () => claudeAgentSdkSession(),
  "mcp-proxy": () => mcpProxySession(),
  "ai-sdk": () => offlineAgent(),
};

const name = process.argv[2] ?? "";
const runOffline = offline[name];
if (runOffline) {
  await runOffline();
  process.exit(0);
}
const install = examples[name];
if (!install) {
  console.error(`usage: start <${[...Object.keys(examples), ...Object.keys(offline)].join("|")}>`);
  process.exit(2);
}
const client = new A3sClient();
client.on("state", ({ state, error }) =>
  console.error(`[${name}] ${state}${error ? `: ${error.message}` : ""}`),
);
client.on("error", (error) => console.error(`[${name}] ${error.code}: ${error.message}`));
install(client);
await client.ready({ timeoutMs: 60_000 });
console.error(`[${name}] hooks registered with ${client.address}; Ctrl-C to stop`);
process.once("SIGINT", () => void client.close().then(() => process.exit(0)));
