/**
 * An answer over the server's message limit, from a client that does not bound its answers
 * (ours cut their text to fit): the server cannot read it, so it cannot tell which firing it
 * answered. The stream ends, every firing the client owes takes its hook's fail behaviour,
 * and the audit record says the message was over the limit.
 */
import { type AuditEvent, createEvent } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { useHookServers } from "./hook-server-fixture.js";
import { rawGrpcHook, rawWsHook } from "./raw-hook-clients.js";

const TOKEN = "oversized-answers-token";
const { serve, cleanup } = useHookServers(TOKEN);
const HUGE = "x".repeat(5_000_000);

const bash = () =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

const options = (clientId: string) =>
  ({ token: TOKEN, clientId, cleanup, failBehavior: "block" }) as const;

const grpcClient = (address: string) =>
  rawGrpcHook(address, options("grpc"), (eventId) => ({
    hookId: "h",
    eventId,
    action: "BLOCK",
    reason: HUGE,
  }));

const wsClient = (url: string) =>
  rawWsHook(url, options("ws"), (eventId) =>
    JSON.stringify({ type: "HookResponse", hookId: "h", eventId, action: "block", reason: HUGE }),
  );

describe.each([
  ["gRPC", (s: { address: string }) => grpcClient(s.address), /over the 4194304-byte limit/],
  [
    "WebSocket",
    (s: { webSocketUrl?: string | undefined }) => wsClient(s.webSocketUrl!),
    /frame: larger than 4194304 bytes/,
  ],
] as const)("an unreadable oversized answer over %s", (_name, connect, why) => {
  it("fails the firing under its fail behaviour, and the audit record says why", async () => {
    const { engine, server } = await serve();
    const failed: AuditEvent[] = [];
    engine.on("failed", (record) => void failed.push(record));
    await connect(server);
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]!.error).toMatchObject({ code: "UNAVAILABLE" });
    expect(result.outcomes[0]!.error!.message).toMatch(why);
    expect(failed).toMatchObject([{ type: "failed", code: "UNAVAILABLE" }]);
    expect((failed[0] as { message: string }).message).toMatch(why);
  });
});
