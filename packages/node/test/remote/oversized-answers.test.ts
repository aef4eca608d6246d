/**
 * An answer over the server's message limit, from a client that does not bound its answers
 * (ours cut their text to fit): the server cannot read it, so it cannot tell which firing it
 * answered. The stream ends, every firing the client owes takes its hook's fail behaviour,
 * and the audit record says the message was over the limit.
 */
import { type AuditEvent, createEvent, PROTOCOL } from "@a3s-lab/hooks-core";
import { type ClientDuplexStream, credentials, Metadata } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadHooksProto } from "../../src/grpc/hooks-proto.js";
import { useHookServers } from "./hook-server-fixture.js";

const TOKEN = "oversized-answers-token";
const { serve, cleanup } = useHookServers(TOKEN);
const HUGE = "x".repeat(5_000_000);

const bash = () =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

async function grpcClient(address: string) {
  const stub = new (loadHooksProto().HookServiceClient)(address, credentials.createInsecure(), {
    "grpc.max_send_message_length": -1,
  }) as never as Record<string, (...args: unknown[]) => unknown> & { close(): void };
  cleanup.push(() => stub.close());
  const md = new Metadata();
  md.set("authorization", `Bearer ${TOKEN}`);
  md.set("x-a3s-client-id", "grpc");
  const call = stub.HookStream!.call(stub, md) as ClientDuplexStream<object, unknown>;
  cleanup.push(() => call.cancel());
  call.on("error", () => {});
  const initial = await new Promise<Metadata>((resolve) => call.once("metadata", resolve));
  md.set("x-a3s-client-secret", initial.get("x-a3s-client-secret")[0]!);
  await new Promise((resolve) =>
    stub.RegisterHook!.call(
      stub,
      { eventType: "PreToolUse", hookId: "h", config: { failBehavior: "FAIL_BEHAVIOR_BLOCK" } },
      md,
      resolve,
    ),
  );
  call.on("data", (event: { eventId: string }) => {
    call.write({ hookId: "h", eventId: event.eventId, action: "CONTINUE", reason: HUGE });
  });
}

async function wsClient(url: string) {
  const socket = new WebSocket(url, PROTOCOL);
  cleanup.push(() => socket.terminate());
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("open", resolve));
  const registered = new Promise<void>((resolve) => {
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Record<string, string>;
      if (frame.type === "Welcome") {
        socket.send(
          JSON.stringify({
            type: "RegisterHookRequest",
            id: "1",
            eventType: "PreToolUse",
            hookId: "h",
            config: { failBehavior: "block" },
          }),
        );
      } else if (frame.type === "RegisterHookResponse") resolve();
      else if (frame.type === "HookEvent") {
        socket.send(
          JSON.stringify({
            type: "HookResponse",
            hookId: "h",
            eventId: frame.eventId,
            reason: HUGE,
          }),
        );
      }
    });
  });
  socket.send(JSON.stringify({ type: "Hello", clientId: "ws", token: TOKEN, protocol: PROTOCOL }));
  await registered;
}

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
