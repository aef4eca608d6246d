/**
 * A3S hooks in front of a real MCP server, offline. The proxy starts
 * `@modelcontextprotocol/server-filesystem` on a scratch folder; an MCP client (the SDK's own,
 * here in the same process) reads a file whose secret a PostToolUse hook redacts, and tries a
 * write a PreToolUse hook blocks. An MCP client such as an IDE assistant gets the same
 * behaviour from `a3s-hooks-mcp -- <server command>` in its configuration.
 *
 *   pnpm --filter @a3s-lab/examples start mcp-proxy
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { createMcpHookProxy } from "@a3s-lab/hooks-mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The filesystem server's entry point, started with this Node (no `npx`, no network). */
const FILESYSTEM_SERVER = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"),
);

/** What the client saw. */
export interface McpProxyRun {
  tools: number;
  read: string;
  write: { isError: boolean; text: string };
}

/** The policy: the folder is read-only to the model, and tokens never reach it. */
export function folderPolicy(): HookEngine {
  const engine = new HookEngine();
  engine.register({
    name: "read-only-folder",
    event: "PreToolUse",
    matcher: "mcp__files__write_file|mcp__files__edit_file|mcp__files__move_file",
    handler: () => block("this folder is read-only"),
  });
  engine.register({
    name: "redact-tokens",
    event: "PostToolUse",
    matcher: "mcp__files__*",
    handler: (event) =>
      /TOKEN=/.test(event.result.output)
        ? modify({
            result: { output: event.result.output.replace(/TOKEN=\S+/g, "TOKEN=[redacted]") },
          })
        : undefined,
  });
  return engine;
}

export async function mcpProxySession(
  log: (line: string) => void = console.log,
): Promise<McpProxyRun> {
  const dir = mkdtempSync(join(tmpdir(), "a3s-mcp-example-"));
  writeFileSync(join(dir, "settings.env"), "REGION=eu\nTOKEN=sk-live-123\n");
  const proxy = createMcpHookProxy({
    engine: folderPolicy(),
    server: {
      name: "files",
      command: process.execPath,
      args: [FILESYSTEM_SERVER, dir],
    },
    onServerStderr: () => {},
  });
  const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: "example-agent", version: "1.0.0" });
  try {
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    log(`the server offers ${tools.length} tools, seen by hooks as mcp__files__<tool>`);

    const text = (r: Awaited<ReturnType<typeof client.callTool>>) =>
      ((r as CallToolResult).content ?? [])
        .map((c) => (c.type === "text" ? c.text : ""))
        .join("\n");
    const read = await client.callTool({
      name: "read_text_file",
      arguments: { path: join(dir, "settings.env") },
    });
    log(`read_text_file settings.env →\n${text(read)}`);
    const write = await client.callTool({
      name: "write_file",
      arguments: { path: join(dir, "settings.env"), content: "TOKEN=mine" },
    });
    log(`write_file → isError ${write.isError === true}: ${text(write)}`);
    return {
      tools: tools.length,
      read: text(read),
      write: { isError: write.isError === true, text: text(write) },
    };
  } finally {
    await client.close();
    await proxy.closed;
    rmSync(dir, { recursive: true, force: true });
  }
}
