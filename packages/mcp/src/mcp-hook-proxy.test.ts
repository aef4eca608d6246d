import { resolve } from "node:path";
import { allow, ask, block, HookEngine, type HookEventName, modify } from "@a3s-lab/hooks-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpHookProxy, type McpHookProxy } from "./mcp-hook-proxy.js";
import type { PermissionOptions } from "./permission-flow.js";

const TINY = resolve(import.meta.dirname, "../test/fixtures/tiny-server.mjs");
const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

let proxy: McpHookProxy | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await proxy?.close();
});

/** The proxy in process, its client on an in-memory pair, the tiny server as its child. */
async function connect(engine: HookEngine, permission?: PermissionOptions) {
  proxy = createMcpHookProxy({
    engine,
    server: { command: "node", args: [TINY], name: "tiny" },
    ...(permission ? { permission } : {}),
    onServerStderr: () => {},
  });
  const [near, far] = InMemoryTransport.createLinkedPair();
  await proxy.connect(far);
  client = new Client({ name: "in-process", version: "1" });
  await client.connect(near);
  return client;
}

function record(engine: HookEngine, ...events: HookEventName[]) {
  const seen: string[] = [];
  for (const event of events) {
    engine.register({ event, handler: () => void seen.push(event) });
  }
  return seen;
}

describe("the permission step", () => {
  it("fires PermissionRequest when a PreToolUse hook asks, and runs the call a hook allows", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", matcher: "mcp__tiny__echo", handler: () => ask() });
    engine.register({
      event: "PermissionRequest",
      handler: (e) => (e.args.text === "hi" ? allow() : undefined),
    });
    const seen = record(engine, "PermissionGranted", "PermissionDenied");
    const c = await connect(engine);
    expect(text(await c.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
    expect(seen).toEqual(["PermissionGranted"]);
  });

  it("denies a call nobody allowed, by default, with the reason in the tool error", async () => {
    const engine = new HookEngine();
    const seen = record(engine, "PermissionRequest", "PermissionDenied");
    const c = await connect(engine, { ask: "mcp__tiny__*" });
    const result = await c.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("permission denied for mcp__tiny__echo");
    expect(seen).toEqual(["PermissionRequest", "PermissionDenied"]);
  });

  it("forwards the arguments a PermissionRequest hook rewrote", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PermissionRequest",
      handler: () => ({
        action: "continue",
        permission: "allow",
        modified: { args: { text: "tamed" } },
      }),
    });
    const c = await connect(engine, { ask: "mcp__tiny__echo" });
    expect(text(await c.callTool({ name: "echo", arguments: { text: "wild" } }))).toBe("tamed");
  });

  it("lets the default answer allow when configured so", async () => {
    const c = await connect(new HookEngine(), { ask: "*", defaultAnswer: "allow" });
    expect(text(await c.callTool({ name: "echo", arguments: { text: "ok" } }))).toBe("ok");
  });
});

describe("hooks on tool calls", () => {
  it("names the hook whose rewrite breaks the tool's schema, and does not call the tool", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      name: "number-it",
      handler: () => modify({ args: { text: 42 } }),
    });
    const c = await connect(engine);
    const result = await c.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('rewritten by hook "number-it"');
    expect(text(result)).toContain("mcp__tiny__echo");
  });

  it("blocks with the hook's reason and never reaches the server", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => block("not today") });
    const seen = record(engine, "PostToolUse", "PostToolUseFailure");
    const c = await connect(engine);
    const result = await c.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toContain("not today");
    expect(seen).toEqual([]);
  });

  // Claude Code's hooks reference, "PostToolUse decision control": `decision: "block"` prompts
  // Claude with the `reason`; the tool already ran, so its answer is kept.
  it("adds a PostToolUse block's reason to the answer, after the tool's own content", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PostToolUse", handler: () => block("echoes are logged") });
    const c = await connect(engine);
    const result = await c.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.isError).not.toBe(true);
    expect(text(result)).toBe("hi\nechoes are logged");
  });

  it("answers with a middleware's output when it answers in place of the tool", async () => {
    const engine = new HookEngine();
    const seen = record(engine, "PostToolUse");
    using _cache = engine.use({ name: "cache", wrapToolCall: () => ({ output: "from cache" }) });
    const c = await connect(engine);
    const result = await c.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.isError).not.toBe(true);
    expect(text(result)).toBe("from cache");
    expect(seen).toEqual(["PostToolUse"]);
  });

  it("fires PostToolUseFailure for a tool that answers isError, and passes its answer on", async () => {
    const engine = new HookEngine();
    const seen = record(engine, "PostToolUse", "PostToolUseFailure");
    const c = await connect(engine);
    // The SDK's server answers a call with invalid arguments with an isError result.
    const result = await c.callTool({ name: "echo", arguments: { text: 1 } });
    expect(result.isError).toBe(true);
    expect(seen).toEqual(["PostToolUseFailure"]);
  });

  it("refuses the session when a SessionStart hook blocks it", async () => {
    const engine = new HookEngine();
    engine.register({ event: "SessionStart", handler: () => block("maintenance window") });
    await expect(connect(engine)).rejects.toThrow(/maintenance window/);
    expect(await proxy!.closed).toMatchObject({ error: { code: "BLOCKED" } });
  });
});

describe("createMcpHookProxy options", () => {
  it.each([
    [{ server: { command: "x" } }, "engine"],
    [{ engine: new HookEngine(), server: { command: " " } }, "server.command"],
    [
      { engine: new HookEngine(), server: { command: "x" }, requestTimeoutMs: -1 },
      "requestTimeoutMs",
    ],
    [{ engine: new HookEngine(), server: { command: "x", name: "" } }, "server.name"],
    [
      {
        engine: new HookEngine(),
        server: { command: "x" },
        permission: { defaultAnswer: "maybe" },
      },
      "permission.defaultAnswer",
    ],
  ])("rejects %o naming %s", (options, field) => {
    expect(() => createMcpHookProxy(options as never)).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining(field) }),
    );
  });
});
