/**
 * What only the gRPC adapter does: statuses, trailers and protobuf-level garbage, played by
 * raw `@grpc/grpc-js` stubs generated from hooks.proto at runtime. Everything both transports
 * share is in the conformance suite (conformance.test.ts).
 */
import { createEvent } from "@a3s-lab/hooks-core";
import {
  type Client,
  type ClientDuplexStream,
  credentials,
  Metadata,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { ManualTimers } from "../../../../test-support/manual-timers.ts";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import { hooksProtoPath, loadHooksProto } from "../../src/grpc/hooks-proto.js";
import type { HookServer } from "../../src/server/create-hook-server.js";
import { useHookServers } from "./hook-server-fixture.js";

const TOKEN = "grpc-test-token";
const { serve, cleanup } = useHookServers(TOKEN);

/** A raw stub, for what a well-behaved transport would never send. */
function rawStub(server: HookServer): Client & Record<string, (...args: unknown[]) => unknown> {
  const stub = new (loadHooksProto().HookServiceClient)(
    server.address,
    credentials.createInsecure(),
  );
  cleanup.push(() => stub.close());
  return stub as never;
}

function metadata(clientId = "raw", token = TOKEN, secret?: string) {
  const md = new Metadata();
  md.set("authorization", `Bearer ${token}`);
  md.set("x-a3s-client-id", clientId);
  if (secret !== undefined) md.set("x-a3s-client-secret", secret);
  return md;
}

/** Open a raw HookStream; resolves once accepted, with the handshake's metadata. */
async function rawStream(stub: ReturnType<typeof rawStub>, md = metadata()) {
  const call = stub.HookStream!.call(stub, md) as ClientDuplexStream<object, unknown>;
  cleanup.push(() => call.cancel());
  call.on("error", () => {});
  const accepted = await new Promise<Metadata>((resolve) => call.once("metadata", resolve));
  const secret = String(accepted.get("x-a3s-client-secret")[0]);
  return { call, accepted, secret, md: metadata("raw", TOKEN, secret) };
}

function rawUnary(
  stub: ReturnType<typeof rawStub>,
  method: string,
  request: object,
  md = metadata(),
) {
  return new Promise<{ error: ServiceError | null; response: unknown }>((resolve) => {
    stub[method]!.call(stub, request, md, (error: ServiceError | null, response: unknown) =>
      resolve({ error, response }),
    );
  });
}

/** Resolves once the server has warned `count` more times (one warning per unmatched answer). */
function warningsSeen(server: HookServer, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const off = server.on("warning", () => {
      if (++seen < count) return;
      off();
      resolve();
    });
  });
}

const bash = (command = "ls") =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe("the gRPC adapter", () => {
  it("names the missing client id in the status, and registers nothing", async () => {
    const { engine, server } = await serve();
    const md = new Metadata();
    md.set("authorization", `Bearer ${TOKEN}`);
    const { error } = await rawUnary(rawStub(server), "RegisterHook", { eventType: "Stop" }, md);
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toBe("x-a3s-client-id: a client id is required");
    expect(error?.metadata.get("x-a3s-error-code")).toEqual(["UNAUTHENTICATED"]);
    expect(engine.size()).toBe(0);
  });

  it("answers a malformed request with INVALID_ARGUMENT naming the field", async () => {
    const { server } = await serve();
    const stub = rawStub(server);
    const { md } = await rawStream(stub);
    const { error } = await rawUnary(
      stub,
      "RegisterHook",
      { eventType: "PreToolUse", hookId: "x".repeat(500) },
      md,
    );
    expect(error?.code).toBe(status.INVALID_ARGUMENT);
    expect(error?.details).toContain("RegisterHookRequest.hook_id");
  });

  it("refuses a message over the size limit with RESOURCE_EXHAUSTED", async () => {
    const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
    const { error } = await rawUnary(rawStub(server), "RegisterHook", {
      eventType: "PreToolUse",
      config: { name: "x".repeat(200_000) },
    });
    expect(error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(engine.size()).toBe(0);
  });

  it("counts malformed JSON, unknown enum values and answers for unknown event ids as failures, and warns", async () => {
    const { engine, server, warnings } = await serve();
    const stub = rawStub(server);
    const { call, md } = await rawStream(stub);
    await rawUnary(stub, "RegisterHook", { eventType: "PreToolUse", hookId: "h" }, md);
    let answers = 0;
    call.on("data", (event: { hookId: string; eventId: string }) => {
      answers++;
      if (answers === 1)
        call.write({ hookId: "h", eventId: event.eventId, modified: Buffer.from("{oops") });
      else call.write({ hookId: "h", eventId: event.eventId, action: 42 });
    });
    const first = await engine.fire(bash());
    expect(first.outcomes[0]?.error?.message).toContain(
      "HookResponse.modified: not valid UTF-8 JSON",
    );
    const second = await engine.fire(bash());
    expect(second.outcomes[0]?.error?.message).toContain("HookResponse.action");
    const received = new Promise<void>((resolve) =>
      server.on("warning", (w) => w.message.includes("no firing waits") && resolve()),
    );
    call.write({ hookId: "h", eventId: "made-up", action: "BLOCK", reason: "x" });
    await received;
    expect(warnings.filter((w) => w.includes("invalid response"))).toHaveLength(2);
    const { response } = await rawUnary(stub, "ListHooks", {}, md);
    expect(
      (response as { hooks: { counters: Record<string, number> }[] }).hooks[0]?.counters,
    ).toMatchObject({
      runs: 2,
      failures: 2,
      rejectedResponses: 3,
    });
  });

  it("sends a fresh 43-character resume secret beside resumed: false, and wants it on every call", async () => {
    const { engine, server } = await serve();
    const stub = rawStub(server);
    // Before any stream: no record, and no record made by asking.
    const early = await rawUnary(stub, "ListHooks", {});
    expect(early.error?.code).toBe(status.FAILED_PRECONDITION);
    expect(early.error?.metadata.get("x-a3s-error-code")).toEqual(["FAILED_PRECONDITION"]);
    expect(server.hub.clients()).toEqual([]);
    const { accepted, secret, md } = await rawStream(stub);
    expect(accepted.get("x-a3s-resumed")).toEqual(["false"]);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const wrong of [metadata(), metadata("raw", TOKEN, "guess")]) {
      const { error } = await rawUnary(stub, "RegisterHook", { eventType: "Stop" }, wrong);
      expect(error?.code).toBe(status.UNAUTHENTICATED);
      expect(error?.details).toContain("x-a3s-client-secret");
    }
    expect(engine.size()).toBe(0);
    expect((await rawUnary(stub, "RegisterHook", { eventType: "Stop" }, md)).error).toBeNull();
    const again = await rawStream(stub, md);
    expect(again.accepted.get("x-a3s-resumed")).toEqual(["true"]);
    expect(again.secret).toBe(secret);
  });

  it("ends a stream that floods answers nobody waits for with RESOURCE_EXHAUSTED, as WebSocket does with 4429", async () => {
    // The server's clock stands still, so the limit refills nothing however slowly a loaded
    // machine reads the flood: on the real clock, a server that read it slower than the refill
    // never ended the stream.
    const { server } = await serve({ timers: new ManualTimers() });
    const { call } = await rawStream(rawStub(server));
    const ended = new Promise<ServiceError>((resolve) => call.once("error", resolve));
    const burstRead = warningsSeen(server, 1000);
    for (let i = 0; i < 1000; i++) call.write({ hookId: "h", eventId: `made-up-${i}` });
    await burstRead;
    // The whole burst is allowed; the next answer, read after it, is one too many.
    expect(server.hub.clients()).toHaveLength(1);
    const oneMoreRead = warningsSeen(server, 1);
    call.write({ hookId: "h", eventId: "made-up-1000" });
    await oneMoreRead;
    expect(server.hub.clients()).toEqual([]);
    const error = await ended;
    expect(error.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(error.details).toContain("match no waiting firing");
    expect(server.hub.clients()).toEqual([]);
  });

  it("keeps the remote quotas it is given: a second client finds the event's remote slots taken", async () => {
    const { engine, server } = await serve({ maxRemoteHooksPerEvent: 1, maxRemoteHooks: 2 });
    const stub = rawStub(server);
    const first = await rawStream(stub);
    expect(
      (await rawUnary(stub, "RegisterHook", { eventType: "Stop" }, first.md)).error,
    ).toBeNull();
    const otherMd = metadata("other");
    const call = stub.HookStream!.call(stub, otherMd) as ClientDuplexStream<object, unknown>;
    cleanup.push(() => call.cancel());
    call.on("error", () => {});
    const accepted = await new Promise<Metadata>((resolve) => call.once("metadata", resolve));
    const md = metadata("other", TOKEN, String(accepted.get("x-a3s-client-secret")[0]));
    const refused = await rawUnary(stub, "RegisterHook", { eventType: "Stop" }, md);
    expect(refused.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refused.error?.details).toContain("maxRemoteHooksPerEvent");
    expect(
      (await rawUnary(stub, "RegisterHook", { eventType: "SessionEnd" }, md)).error,
    ).toBeNull();
    const total = await rawUnary(stub, "RegisterHook", { eventType: "PreToolUse" }, md);
    expect(total.error?.details).toContain("maxRemoteHooks:");
    expect(engine.size()).toBe(2);
  });

  it("reports AgentService on a host without one as UNIMPLEMENTED", async () => {
    const { server } = await serve();
    const t = createGrpcTransport({ address: server.address, clientId: "c", token: TOKEN });
    cleanup.push(() => t.close());
    await expect(t.call("CreateSession", {})).rejects.toMatchObject({
      code: "UNAVAILABLE",
      details: { grpcStatus: "UNIMPLEMENTED" },
    });
  });
});

describe("hooks.proto", () => {
  it("is found next to the package and loads both services", () => {
    expect(hooksProtoPath()).toMatch(/packages\/node\/proto\/hooks\.proto$/);
    const proto = loadHooksProto();
    expect(Object.keys(proto.HookService).sort()).toEqual([
      "HookStream",
      "ListHooks",
      "RegisterHook",
      "UnregisterHook",
    ]);
    expect(Object.keys(proto.AgentService).sort()).toEqual([
      "CreateSession",
      "DestroySession",
      "ExecuteTool",
      "Generate",
    ]);
  });
});
