/**
 * Hostile answers through the real servers: a `modified` nested 100 000 levels deep, or with a
 * `__proto__` key, is that hook's failure (a fail-closed hook blocks), never an error out of
 * `engine.fire`.
 */
import { createEvent, PROTOCOL } from "@a3s-lab/hooks-core";
import { type ClientDuplexStream, credentials, Metadata } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadHooksProto } from "../../src/grpc/hooks-proto.js";
import { useHookServers } from "./hook-server-fixture.js";

const TOKEN = "deep-answers-token";
const { serve, cleanup } = useHookServers(TOKEN);

const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const bash = () =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

/** A WebSocket client with one fail-closed PreToolUse hook that answers every event with `modified`. */
async function wsHook(url: string, modified: string): Promise<void> {
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
          `{"type":"HookResponse","hookId":"h","eventId":${JSON.stringify(frame.eventId)},"action":"continue","modified":${modified}}`,
        );
      }
    });
  });
  socket.send(JSON.stringify({ type: "Hello", clientId: "ws", token: TOKEN, protocol: PROTOCOL }));
  await registered;
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
    const stub = new (loadHooksProto().HookServiceClient)(
      server.address,
      credentials.createInsecure(),
    ) as never as Record<string, (...args: unknown[]) => unknown> & { close(): void };
    cleanup.push(() => stub.close());
    const md = new Metadata();
    md.set("authorization", `Bearer ${TOKEN}`);
    md.set("x-a3s-client-id", "grpc");
    // The stream first: the server may hold hook calls until the client's stream is open.
    const call = stub.HookStream!.call(stub, md) as ClientDuplexStream<object, unknown>;
    cleanup.push(() => call.cancel());
    call.on("error", () => {});
    const initial = await new Promise<Metadata>((resolve) => call.once("metadata", resolve));
    const secret = initial.get("x-a3s-client-secret")[0];
    if (secret !== undefined) md.set("x-a3s-client-secret", secret);
    const registered = await new Promise((resolve) =>
      stub.RegisterHook!.call(
        stub,
        { eventType: "PreToolUse", hookId: "h", config: { failBehavior: "FAIL_BEHAVIOR_BLOCK" } },
        md,
        (error: unknown) => resolve(error),
      ),
    );
    expect(registered).toBe(null);
    call.on("data", (event: { eventId: string }) => {
      call.write({
        hookId: "h",
        eventId: event.eventId,
        action: "CONTINUE",
        modified: Buffer.from(deepJson(100_000)),
      });
    });
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]!.error!.message).toContain(
      "HookResponse.modified: nested more than 64 levels deep",
    );
  });
});
