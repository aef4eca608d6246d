/**
 * A remote hook (a real A3sClient over gRPC to a real hook server on the proxy's engine)
 * answers an MCP `tools/call` in place of the tool, with the engine traced by OpenTelemetry.
 */
import { resolve } from "node:path";
import { A3sClient, HookResponse } from "@a3s-lab/box";
import { HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { HOOK_ATTRIBUTES, instrumentHooks } from "@a3s-lab/hooks-node/otel";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpHookProxy, type McpHookProxy } from "./mcp-hook-proxy.js";

const TINY = resolve(import.meta.dirname, "../test/fixtures/tiny-server.mjs");
const TOKEN = "mcp-respond-token";
const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("a remote respond through the MCP proxy", () => {
  it("answers tools/call without reaching the server; the hook's span is the firing's child", async () => {
    const engine = new HookEngine();
    const spans = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const tracing = instrumentHooks(engine, { tracer: provider.getTracer("test") });
    cleanup.push(() => tracing.uninstrument());

    const server: HookServer = await createHookServer({ engine, port: 0, token: TOKEN });
    cleanup.push(() => server.close());
    const remote = new A3sClient({ address: server.address, token: TOKEN });
    cleanup.push(() => remote.close());
    const traceparents: unknown[] = [];
    remote.registerHook("PreToolUse", {
      // `crash` ends the server's process: had it run, the next call would fail.
      matcher: { tool: "mcp__tiny__crash" },
      handler: (event) => {
        traceparents.push(event.metadata?.traceparent);
        return HookResponse.respond("crash averted by a remote hook");
      },
    });
    await remote.ready();

    const proxy: McpHookProxy = createMcpHookProxy({
      engine,
      server: { command: "node", args: [TINY], name: "tiny" },
      onServerStderr: () => {},
    });
    cleanup.push(() => proxy.close());
    const [near, far] = InMemoryTransport.createLinkedPair();
    await proxy.connect(far);
    const client = new Client({ name: "in-process", version: "1" });
    await client.connect(near);
    cleanup.push(() => client.close());

    const answered = await client.callTool({ name: "crash", arguments: {} });
    expect(answered.isError).not.toBe(true);
    expect(text(answered)).toBe("crash averted by a remote hook");
    // The server is alive: the tool never ran.
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );

    const finished = spans.getFinishedSpans();
    const firing = finished.find(
      (s) =>
        s.name === "hooks.fire PreToolUse" && s.attributes[HOOK_ATTRIBUTES.decision] === "respond",
    )!;
    expect(firing).toBeDefined();
    const hook = finished.find(
      (s) =>
        s.attributes[HOOK_ATTRIBUTES.source] === "remote" &&
        s.parentSpanContext?.spanId === firing.spanContext().spanId,
    );
    expect(hook?.attributes[HOOK_ATTRIBUTES.decision]).toBe("respond");
    const { traceId, spanId } = firing.spanContext();
    expect(traceparents).toEqual([`00-${traceId}-${spanId}-01`]);
  });
});
