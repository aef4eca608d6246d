/**
 * A hook author's `HookResponse.defer(reason, routing)` from a real A3sClient, over gRPC (Node's
 * default) and WebSocket, to a real hook server: the agent's merged result parks the call with
 * the hook's reason and routing.
 */
import { createEvent, type DeferRouting, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { A3sClient, createWebSocketTransport, HookResponse } from "../src/index.js";

const TOKEN = "defer-token";
let server: HookServer | undefined;
let client: A3sClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

const push = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "git push" } });

describe.each([
  ["gRPC", {}],
  ["WebSocket", { transport: createWebSocketTransport }],
] as const)("HookResponse.defer from an A3sClient over %s", (_name, transport) => {
  async function connect(event: "PreToolUse" | "UserPromptSubmit", answer: () => unknown) {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, ...transport });
    client.registerHook(event, {
      config: { failBehavior: "continue" },
      handler: answer as never,
    });
    await client.ready();
    return { engine };
  }

  it("parks the call: the merged result is deferred with the hook's reason and routing", async () => {
    const routing: DeferRouting = { deciders: ["alice"], deadline: "2h", onDeadline: "deny" };
    const { engine } = await connect("PreToolUse", () =>
      HookResponse.defer("pushing needs a person", routing),
    );
    const result = await engine.fire(push());
    expect(result.stopTurn).toEqual({
      // The agent's id for the remote hook, not the client's.
      hookId: expect.stringMatching(/^remote-/),
      reason: "pushing needs a person",
      deferred: true,
      routing,
    });
  });

  it("a malformed routing is the hook's failure, naming the field", async () => {
    const { engine } = await connect("PreToolUse", () =>
      HookResponse.defer("later", { deadline: "next week" }),
    );
    const result = await engine.fire(push());
    expect(result.stopTurn).toBeUndefined();
    expect(result.outcomes[0]).toMatchObject({ status: "failed" });
    expect(result.outcomes[0]!.error!.message).toMatch(/routing\.deadline/);
  });

  it("a defer of an event that is not a tool call is the hook's failure", async () => {
    const { engine } = await connect("UserPromptSubmit", () => HookResponse.defer("why"));
    const result = await engine.fire(
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" }),
    );
    expect(result.stopTurn).toBeUndefined();
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_OUTPUT" },
    });
    expect(result.outcomes[0]!.error!.message).toMatch(/only a PreToolUse answer may defer/);
  });
});
