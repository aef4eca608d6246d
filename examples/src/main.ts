/**
 * Run one of the examples against an agent: it registers the hooks and serves them until
 * Ctrl-C. The agent's address and token come from A3S_ADDRESS and A3S_TOKEN.
 *
 *   pnpm --filter @a3s-lab/examples start security-policy
 *
 * Or run a file of your own (a snippet of a guide saved as `my-hook.ts`, anywhere): it imports
 * the repository's packages as an installed package would, runs from the folder `pnpm` was
 * started in, and exits when its work is done:
 *
 *   pnpm example my-hook.ts
 *
 * The adapter examples run on their own, offline, and exit:
 *
 *   pnpm --filter @a3s-lab/examples start claude-agent-sdk
 *   pnpm --filter @a3s-lab/examples start mcp-proxy
 *   pnpm --filter @a3s-lab/examples start ai-sdk
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { extname, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { pathToFileURL } from "node:url";
import type { A3sClient } from "@a3s-lab/box";

// Each example is imported when it is chosen: `pnpm example my-hook.ts` then loads neither the
// AI SDK, the Claude Agent SDK, the MCP SDK nor the gRPC client (a quarter less CPU per run).
const examples: Record<string, (client: A3sClient) => Promise<void>> = {
  "security-policy": async (client) =>
    void (await import("./security-policy.js")).securityPolicy(client),
  "auto-format": async (client) => void (await import("./auto-format.js")).autoFormat(client),
  "cost-tracking": async (client) => void (await import("./cost-tracking.js")).costTracking(client),
  "permission-escalation": async (client) =>
    void (await import("./permission-escalation.js")).permissionEscalation(
      client,
      async ({ title, message }) => {
        // A terminal stands in for the design's confirmation dialog.
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        const answer = await rl.question(`${title}\n${message}\n[y/N] `);
        rl.close();
        return /^y(es)?$/i.test(answer.trim());
      },
    ),
};

/** Examples that need no agent: they run, print what happened, and exit. */
const offline: Record<string, () => Promise<unknown>> = {
  "claude-agent-sdk": async () => (await import("./claude-agent-sdk.js")).claudeAgentSdkSession(),
  "mcp-proxy": async () => (await import("./mcp-proxy.js")).mcpProxySession(),
  "ai-sdk": async () => (await import("./ai-sdk.js")).offlineAgent(),
};

const name = process.argv[2] ?? "";
// `pnpm example` runs this in examples/; a file is named from where the user typed it.
const userCwd = process.env.INIT_CWD ?? process.cwd();
if (/\.(ts|mts|js|mjs)$/.test(extname(name))) {
  const file = resolve(userCwd, name);
  if (!existsSync(file)) {
    console.error(`example: no such file: ${file}`);
    process.exit(2);
  }
  await runFile(file);
  process.exit(0);
}
const runOffline = offline[name];
if (runOffline) {
  await runOffline();
  process.exit(0);
}
const install = examples[name];
if (!install) {
  console.error(
    `usage: pnpm example <${[...Object.keys(examples), ...Object.keys(offline)].join("|")}|FILE.ts>`,
  );
  process.exit(2);
}
const { A3sClient: Client } = await import("@a3s-lab/box");
const client = new Client();
client.on("state", ({ state, error }) =>
  console.error(`[${name}] ${state}${error ? `: ${error.message}` : ""}`),
);
client.on("error", (error) => console.error(`[${name}] ${error.code}: ${error.message}`));
await install(client);
await client.ready({ timeoutMs: 60_000 });
console.error(`[${name}] hooks registered with ${client.address}; Ctrl-C to stop`);
process.once("SIGINT", () => void client.close().then(() => process.exit(0)));

/**
 * Run a file of the user's: `@a3s-lab/…` resolve to the workspace's packages (from source, as
 * everything here does), other packages to this package's dependencies, relative imports and
 * relative paths to the file's own folder and the user's.
 */
async function runFile(file: string): Promise<void> {
  const workspace = join(import.meta.dirname, "..", "..");
  const packages: Record<string, string> = {};
  for (const folder of ["packages", "apps"]) {
    for (const dir of readdirSync(join(workspace, folder))) {
      const manifest = join(workspace, folder, dir, "package.json");
      if (!existsSync(manifest)) continue;
      packages[JSON.parse(readFileSync(manifest, "utf8")).name] = pathToFileURL(manifest).href;
    }
  }
  register("./workspace-resolve.mjs", import.meta.url, {
    data: { packages, fallback: import.meta.url, entry: pathToFileURL(file).href },
  });
  process.chdir(userCwd);
  await import(pathToFileURL(file).href);
}
