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
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { createMcpHookProxy } from "@a3s-lab/hooks-mcp";

/**
 * An app that uses the proxy installs the MCP SDK (its peer) and the server, and imports
 * `Client` and `InMemoryTransport` from the SDK; this workspace's examples borrow the copies
 * installed for hooks-mcp, so they are typed here by the little they use.
 */
const fromHooksMcp = createRequire(import.meta.resolve("@a3s-lab/hooks-mcp"));
const sdk = async <T>(path: string): Promise<T> =>
  (await import(
    pathToFileURL(fromHooksMcp.resolve(`@modelcontextprotocol/sdk/${path}`)).href
  )) as T;

interface ToolResult {
  content?: unknown;
  isError?: unknown;
}
interface McpClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult>;
  close(): Promise<void>;
}
type Transport = Parameters<ReturnType<typeof createMcpHookProxy>["connect"]>[0];

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
  const { Client } = await sdk<{
    Client: new (info: { name: string; version: string }) => McpClient;
  }>("client/index.js");
  const { InMemoryTransport } = await sdk<{
    InMemoryTransport: { createLinkedPair(): [Transport, Transport] };
  }>("inMemory.js");
  const dir = mkdtempSync(join(tmpdir(), "a3s-mcp-example-"));
  writeFileSync(join(dir, "settings.env"), "REGION=eu\nTOKEN=sk-live-123\n");
  const proxy = createMcpHookProxy({
    engine: folderPolicy(),
    server: {
      name: "files",
      command: process.execPath,
      args: [fromHooksMcp.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), dir],
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

    const text = (r: ToolResult) =>
      ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");
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
