/**
 * Hostile answers through the real servers: a `modified` nested 100 000 levels deep, or with a
 * `__proto__` key, is that hook's failure (a fail-closed hook blocks), never an error out of
 * `engine.fire`.
 */
import { createEvent } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { useHookServers } from "./hook-server-fixture.js";
import { rawGrpcHook, rawWsHook } from "./raw-hook-clients.js";

const TOKEN = "deep-answers-token";
const { serve, cleanup } = useHookServers(TOKEN);

const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const bash = () =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

/** A WebSocket client with one fail-closed PreToolUse hook that answers every event with `modified`. */
function wsHook(url: string, modified: string): Promise<void> {
  return rawWsHook(
    url,
    { token: TOKEN, clientId: "ws", cleanup, failBehavior: "block" },
    (eventId) =>
      `{"type":"HookResponse","hookId":"h","eventId":${JSON.stringify(eventId)},"action":"continue","modified":${modified}}`,
  );
}

describe("deep and prototype-bending answers from remote hooks", () => {
  it("WebSocket: a modified 100 000 levels deep fails the fail-closed hook, which blocks", async () => {
    const { engine, server } = await serve();
    await wsHook(server.webSocketUrl!, deepJson(100_000));
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]!.error).toMatchObject({ code: "LIMIT_EXCEEDED" });
    expect(result.outcomes[0]!.error!.message).toContain(
      "HookResponse.modified: nested more than 64 levels deep",
    );
  });

  it("WebSocket: a __proto__ key at the top of modified fails the hook, naming the key", async () => {
    const { engine, server } = await serve();
    await wsHook(server.webSocketUrl!, '{"__proto__":{"polluted":true}}');
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]!.error!.message).toContain(
      "HookResponse.modified.__proto__: this key is not allowed",
    );
  });

  it("gRPC: a modified 100 000 levels deep fails the fail-closed hook, which blocks", async () => {
    const { engine, server } = await serve();
    await rawGrpcHook(
      server.address,
      { token: TOKEN, clientId: "grpc", cleanup, failBehavior: "block" },
      (eventId) => ({
        hookId: "h",
        eventId,
        action: "CONTINUE",
        modified: Buffer.from(deepJson(100_000)),
      }),
    );
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]!.error!.message).toContain(
      "HookResponse.modified: nested more than 64 levels deep",
    );
  });
});
