/**
 * A hook author's `HookResponse.respond(output)` from a real A3sClient, over gRPC (Node's
 * default) and WebSocket, to a real hook server: the agent's `runTool` does not run the tool,
 * and what the model reads is the client's answer.
 */
import { type AuditEvent, createEvent, HookEngine, runTool } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { A3sClient, createWebSocketTransport, HookResponse } from "../src/index.js";

const TOKEN = "respond-token";
let server: HookServer | undefined;
let client: A3sClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

describe.each([
  ["gRPC", {}],
  ["WebSocket", { transport: createWebSocketTransport }],
] as const)("HookResponse.respond from an A3sClient over %s", (_name, transport) => {
  it("answers the matched tool call in place of the tool; other tools still run", async () => {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, ...transport });
    client.setHookAuditLevel("info");
    const records: AuditEvent[] = [];
    client.onAudit((r) => records.push(r));
    const { id } = client.registerHook("PreToolUse", {
      matcher: { tool: "WebFetch" },
      handler: (event) => HookResponse.respond(`cached copy of ${String(event.args.url)}`),
    });
    await client.ready();

    const execute = vi.fn(async () => ({ output: "fetched live" }));
    const fetched = await runTool(
      engine,
      { sessionId: "s1", tool: "WebFetch", args: { url: "https://example.com" } },
      execute,
    );
    expect(execute).not.toHaveBeenCalled();
    expect(fetched.output).toBe("cached copy of https://example.com");
    expect(records).toContainEqual(
      expect.objectContaining({ type: "responded", hookId: id, outputLength: 34 }),
    );

    const read = await runTool(
      engine,
      { sessionId: "s1", tool: "Read", args: { path: "a.txt" } },
      execute,
    );
    expect(execute).toHaveBeenCalledTimes(1);
    expect(read.output).toBe("fetched live");
  });

  it("a respond to an event that is not a tool call is the hook's failure", async () => {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, ...transport });
    client.registerHook("UserPromptSubmit", {
      config: { failBehavior: "block" },
      handler: () => HookResponse.respond("not a tool"),
    });
    await client.ready();
    const result = await engine.fire(
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" }),
    );
    expect(result.action).toBe("block");
    expect(result.respond).toBeUndefined();
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_OUTPUT" },
    });
  });
});
