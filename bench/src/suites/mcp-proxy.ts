import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BenchError } from "../bench-error.js";
import { alternate } from "../cross/alternate.js";
import { goals, makeRow, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

// A bundled run (run.mjs) says where the bench lives; import.meta.url is the bundle's there.
const benchRoot = process.env.A3S_BENCH_ROOT ?? fileURLToPath(new URL("../../", import.meta.url));
const packagesDir = join(benchRoot, "..", "packages");

/**
 * The `a3s-hooks-mcp` bin's node arguments: its bundle, which a benchmark run (run.mjs) makes
 * beside the main script and names in `A3S_BENCH_DIST`; without it, its source through tsx
 * (whose keepNames makes our side a little slower than the built package, never faster).
 */
function proxyBin(): string[] {
  const dist = process.env.A3S_BENCH_DIST;
  if (dist) return [join(dist, "a3s-hooks-mcp.mjs")];
  return [
    "--conditions=@a3s-lab/source",
    "--import",
    "tsx",
    join(packagesDir, "mcp", "src", "bin.ts"),
  ];
}

/** A tool call through the MCP hook proxy (a process between client and server) against a direct one. */
export const mcpProxySuite: Suite = {
  id: "mcp-proxy",
  title: "MCP hook proxy: a tool call over stdio",
  async run({ profile, log }) {
    const server = fileURLToPath(
      import.meta.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"),
    );
    const dir = mkdtempSync(join(tmpdir(), "a3s-bench-mcp-"));
    const env = { PATH: process.env.PATH ?? "", HOME: dir };
    const connect = async (command: string, args: string[]) => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({ command, args, cwd: benchRoot, env, stderr: "ignore" }),
      );
      return client;
    };
    const clients: Client[] = [];
    try {
      log("mcp-proxy: starting the filesystem server, directly and behind the proxy");
      const direct = await connect(process.execPath, [server, dir]);
      clients.push(direct);
      // The proxy bundled from source as the benchmark is (no settings files, so no hook runs).
      const proxied = await connect(process.execPath, [
        ...proxyBin(),
        "--no-defaults",
        "--name",
        "fs",
        "--",
        process.execPath,
        server,
        dir,
      ]);
      clients.push(proxied);
      const call = { name: "list_allowed_directories", arguments: {} };
      for (const [name, client] of [
        ["direct", direct],
        ["proxied", proxied],
      ] as const) {
        const result = await client.callTool(call);
        if (result.isError === true || !JSON.stringify(result.content).includes(dir)) {
          throw new BenchError(
            "TASK_FAILED",
            `${name}: unexpected answer ${JSON.stringify(result)}`,
          );
        }
      }
      const samples = await alternate(
        { proxied: () => proxied.callTool(call), direct: () => direct.callTool(call) },
        profile.roundTrips,
      );
      return {
        rows: [
          makeRow({
            id: "adapter.mcp-proxy.tool-call",
            what: "MCP `tools/call` through `a3s-hooks mcp-proxy`, no hook registered",
            ours: side("client → proxy → server, over stdio", summarize(samples.proxied!)),
            baseline: side("client → server, over stdio", summarize(samples.direct!)),
            goal: goals.overheadBelow(1_000_000, "< 1 ms overhead"),
            smoke: profile.smoke,
            note: "The SDK's Client, one call at a time, alternating, against @modelcontextprotocol/server-filesystem's list_allowed_directories. Ours adds a process and a stdio hop, PreToolUse and PostToolUse firings (no hook matches) and the SDK's parsing on both of the proxy's sides; the proxy is bundled from source, as the benchmark is.",
          }),
        ],
        pending: [],
      };
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
