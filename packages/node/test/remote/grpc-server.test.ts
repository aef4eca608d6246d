/**
 * The hook server over real gRPC on 127.0.0.1: security defaults, AgentService, and hostile
 * clients (malformed JSON, huge messages, unknown events, bad matchers, stray answers),
 * played by raw `@grpc/grpc-js` stubs generated from hooks.proto at runtime.
 */
import { networkInterfaces } from "node:os";
import {
  createEvent,
  HookEngine,
  HookError,
  type HookEventMessage,
  type HookStream,
  type Transport,
} from "@a3s-lab/hooks-core";
import {
  type Client,
  type ClientDuplexStream,
  credentials,
  Metadata,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import { hooksProtoPath, loadHooksProto } from "../../src/grpc/hooks-proto.js";
import type { AgentService } from "../../src/server/agent-service.js";
import {
  createHookServer,
  type HookServer,
  type HookServerOptions,
} from "../../src/server/create-hook-server.js";
import type { HubEvent } from "../../src/server/hub-events.js";

const TOKEN = "grpc-test-token";
const cleanup: (() => unknown)[] = [];

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(options: Partial<HookServerOptions> = {}) {
  const engine = options.engine ?? new HookEngine();
  const auth = options.insecure ? {} : { token: TOKEN };
  const server = await createHookServer({ engine, port: 0, ...auth, ...options });
  cleanup.push(() => server.close());
  const warnings: string[] = [];
  server.on("warning", (w) => warnings.push(w.message));
  return { engine, server, warnings };
}

function transport(server: HookServer, clientId = "c1", token: string | null = TOKEN): Transport {
  const t = createGrpcTransport({ address: server.address, clientId, ...(token ? { token } : {}) });
  cleanup.push(() => t.close());
  return t;
}

/** Open a hook stream that hands each firing to `answer`. */
async function stream(t: Transport, answer: (event: HookEventMessage, s: HookStream) => void) {
  let onClose!: (error: HookError | undefined) => void;
  const closed = new Promise<HookError | undefined>((resolve) => (onClose = resolve));
  const s: HookStream = await t.openHookStream({
    onEvent: (event) => answer(event, s),
    onClose: (error) => onClose(error),
  });
  cleanup.push(() => s.close());
  return { stream: s, closed };
}

/** A raw stub, for what a well-behaved transport would never send. */
function rawStub(server: HookServer): Client & Record<string, (...args: unknown[]) => unknown> {
  const stub = new (loadHooksProto().HookServiceClient)(
    server.address,
    credentials.createInsecure(),
  );
  cleanup.push(() => stub.close());
  return stub as never;
}

function metadata(clientId = "raw", token = TOKEN) {
  const md = new Metadata();
  md.set("authorization", `Bearer ${token}`);
  md.set("x-a3s-client-id", clientId);
  return md;
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

const bash = (command = "ls") =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe("hook server security", () => {
  it("needs a token, or an explicit insecure: true", async () => {
    const engine = new HookEngine();
    await expect(createHookServer({ engine, port: 0 })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message:
        "options.token: a token is required; pass insecure: true to accept calls without one",
    });
    await expect(createHookServer({ engine, port: 0, token: "t", insecure: true })).rejects.toThrow(
      "not both",
    );
    await expect(createHookServer({ engine: {} as never, port: 0, token: "t" })).rejects.toThrow(
      "options.engine",
    );
    await expect(createHookServer({ engine, port: 70_000, token: "t" })).rejects.toThrow(
      "options.port",
    );
    const { server } = await serve({ insecure: true });
    const open = transport(server, "anyone", null);
    expect(await open.call("ListHooks", {})).toEqual({ hooks: [] });
  });

  it("listens on 127.0.0.1 only, unless told otherwise", async () => {
    const { server } = await serve();
    expect(server.host).toBe("127.0.0.1");
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === "IPv4" && !i.internal);
    // On a machine with another interface, the server must not answer there.
    if (external) {
      const outside = createGrpcTransport({
        address: `${external.address}:${server.port}`,
        clientId: "c",
        token: TOKEN,
      });
      cleanup.push(() => outside.close());
      await expect(outside.call("ListHooks", {})).rejects.toMatchObject({ code: "UNAVAILABLE" });
    }
  });

  it("refuses a missing or wrong token, or a missing client id, and registers nothing", async () => {
    const { engine, server } = await serve();
    for (const t of [transport(server, "c1", "wrong"), transport(server, "c1", null)]) {
      await expect(t.call("RegisterHook", { eventType: "PreToolUse" })).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
      await expect(t.openHookStream({ onEvent() {}, onClose() {} })).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
    }
    const stub = rawStub(server);
    const md = new Metadata();
    md.set("authorization", `Bearer ${TOKEN}`);
    const { error } = await rawUnary(stub, "RegisterHook", { eventType: "Stop" }, md);
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toBe("x-a3s-client-id: a client id is required");
    expect(engine.size()).toBe(0);
  });

  it("refuses to remove another client's hook", async () => {
    const { engine, server } = await serve();
    await transport(server, "owner").call("RegisterHook", { eventType: "Stop", hookId: "h" });
    await expect(
      transport(server, "intruder").call("UnregisterHook", { hookId: "h" }),
    ).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    expect(await transport(server, "intruder").call("ListHooks", {})).toEqual({ hooks: [] });
    expect(engine.size()).toBe(1);
  });
});

describe("hook server against hostile input", () => {
  it("answers an unknown event type and a bad matcher with INVALID_ARGUMENT naming the field", async () => {
    const { server } = await serve();
    const t = transport(server);
    await expect(t.call("RegisterHook", { eventType: "Explode" })).rejects.toMatchObject({
      code: "UNKNOWN_EVENT",
      message: 'RegisterHookRequest.eventType: unknown event name "Explode"',
    });
    await expect(
      t.call("RegisterHook", { eventType: "PreToolUse", matcher: { commandPattern: "([" } }),
    ).rejects.toMatchObject({
      code: "INVALID_PATTERN",
      message: expect.stringContaining("commandPattern"),
    });
    const { error } = await rawUnary(rawStub(server), "RegisterHook", {
      eventType: "PreToolUse",
      hookId: "x".repeat(500),
    });
    expect(error?.code).toBe(status.INVALID_ARGUMENT);
    expect(error?.details).toContain("RegisterHookRequest.hookId");
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

  it("fails a firing whose answer is too large, at once, without waiting for the timeout", async () => {
    const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
    const t = transport(server);
    const { closed } = await stream(t, (event, s) =>
      s.send({
        hookId: event.hookId,
        eventId: event.eventId,
        action: "block",
        reason: "x".repeat(200_000),
      }),
    );
    await t.call("RegisterHook", {
      eventType: "PreToolUse",
      config: { timeoutMs: 60_000, failBehavior: "block" },
    });
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.outcomes[0]?.error?.code).toBe("UNAVAILABLE");
    expect((await closed)?.code).toBe("LIMIT_EXCEEDED");
  });

  it("fails a hook whose event is larger than the server sends", async () => {
    const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
    const t = transport(server);
    await stream(t, () => {});
    await t.call("RegisterHook", { eventType: "PreToolUse" });
    const result = await engine.fire(bash("x".repeat(100_000)));
    expect(result.outcomes[0]?.error).toMatchObject({ code: "LIMIT_EXCEEDED" });
    expect(result.outcomes[0]?.error?.message).toContain("the hook server sends at most 65536");
  });

  it("counts malformed JSON, unknown enum values and answers for unknown event ids as failures, and warns", async () => {
    const { engine, server, warnings } = await serve();
    const stub = rawStub(server);
    await rawUnary(stub, "RegisterHook", { eventType: "PreToolUse", hookId: "h" });
    const call = stub.HookStream!.call(stub, metadata()) as ClientDuplexStream<object, unknown>;
    cleanup.push(() => call.cancel());
    call.on("error", () => {});
    await new Promise((resolve) => call.once("metadata", resolve));
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
    const { response } = await rawUnary(stub, "ListHooks", {});
    expect(
      (response as { hooks: { counters: Record<string, number> }[] }).hooks[0]?.counters,
    ).toMatchObject({
      runs: 2,
      failures: 2,
      rejectedResponses: 3,
    });
  });
});

describe("hook server streams", () => {
  it("tells a new client it was not resumed, and a returning one that it was", async () => {
    const { server } = await serve();
    const t = transport(server, "back");
    const first = await stream(t, () => {});
    expect(first.stream.resumed).toBe(false);
    await t.call("RegisterHook", { eventType: "Stop" });
    first.stream.close();
    const second = await stream(t, () => {});
    expect(second.stream.resumed).toBe(true);
  });

  it("cancels the client's wait when the agent aborts a firing", async () => {
    const { engine, server } = await serve();
    const t = transport(server);
    const seen: HookEventMessage[] = [];
    let sent!: () => void;
    const firstSent = new Promise<void>((resolve) => (sent = resolve));
    const cancelled = new Promise<HookEventMessage>((resolve) =>
      stream(t, (event) => {
        seen.push(event);
        if (event.cancel) resolve(event);
        else sent();
      }),
    );
    await t.call("RegisterHook", { eventType: "PreToolUse", hookId: "h" });
    const controller = new AbortController();
    const firing = engine.fire(bash(), { signal: controller.signal });
    await firstSent;
    controller.abort(new HookError("ABORTED", "session ended"));
    await expect(firing).rejects.toMatchObject({ code: "ABORTED" });
    expect(await cancelled).toMatchObject({ hookId: "h", eventId: seen[0]?.eventId, cancel: true });
  });

  it("closes: ends open streams, takes remote hooks off the engine, frees the port", async () => {
    const engine = new HookEngine();
    engine.register({ event: "Stop", handler: () => undefined, id: "local" });
    const server = await createHookServer({ engine, port: 0, token: TOKEN });
    const t = transport(server);
    const { closed } = await stream(t, () => {});
    await t.call("RegisterHook", { eventType: "Stop" });
    const events: HubEvent[] = [];
    server.on("*", (e) => events.push(e));
    await server.close();
    await server.close();
    expect(engine.list().map((h) => h.id)).toEqual(["local"]);
    expect((await closed)?.code).toBe("UNAVAILABLE");
    const again = await createHookServer({ engine, port: server.port, token: TOKEN });
    cleanup.push(() => again.close());
    expect(again.port).toBe(server.port);
  });
});

describe("AgentService", () => {
  function agent(
    overrides: Partial<AgentService> = {},
  ): AgentService & { aborted: Promise<unknown> } {
    let onAbort!: (reason: unknown) => void;
    const aborted = new Promise<unknown>((resolve) => (onAbort = resolve));
    return {
      aborted,
      createSession: ({ sessionId }, ctx) => ({
        sessionId: sessionId || `made-for-${ctx.clientId}`,
      }),
      destroySession: ({ sessionId }) => ({ destroyed: sessionId === "known" }),
      async *generate({ prompt }, ctx) {
        yield { progress: { kind: "text", text: "thinking", data: { step: 1 } } };
        if (prompt === "forever") {
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          onAbort(ctx.signal.reason);
          return;
        }
        yield {
          result: {
            text: `echo ${prompt}`,
            usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
          },
        };
      },
      executeTool: ({ tool, args }) => {
        if (tool === "Missing") throw new HookError("NOT_FOUND", "no tool Missing");
        if (tool === "Broken") return { success: "yes" } as never;
        return { success: true, output: JSON.stringify(args), durationMs: 5 };
      },
      ...overrides,
    };
  }

  it("is not served unless the host gives an implementation", async () => {
    const { server } = await serve();
    await expect(transport(server).call("CreateSession", {})).rejects.toMatchObject({
      code: "UNAVAILABLE",
      details: { grpcStatus: "UNIMPLEMENTED" },
    });
  });

  it("serves sessions, tools and generation to authenticated callers", async () => {
    const impl = agent();
    const { server } = await serve({ agent: impl });
    const t = transport(server, "sdk");
    expect(await t.call("CreateSession", {})).toEqual({ sessionId: "made-for-sdk" });
    expect(await t.call("CreateSession", { sessionId: "chosen" })).toEqual({ sessionId: "chosen" });
    expect(
      await t.call("ExecuteTool", { sessionId: "s", tool: "Echo", args: { a: [1, "two"] } }),
    ).toEqual({
      success: true,
      output: '{"a":[1,"two"]}',
      durationMs: 5,
    });
    const events = [];
    for await (const e of t.generate({ sessionId: "s", prompt: "hi" })) events.push(e);
    expect(events).toEqual([
      { progress: { kind: "text", text: "thinking", data: { step: 1 } } },
      {
        result: {
          text: "echo hi",
          usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        },
      },
    ]);
    expect(await t.call("DestroySession", { sessionId: "known" })).toEqual({ destroyed: true });
    expect(await t.call("DestroySession", { sessionId: "other" })).toEqual({ destroyed: false });
    await expect(transport(server, "sdk", "wrong").call("CreateSession", {})).rejects.toMatchObject(
      {
        code: "UNAUTHENTICATED",
      },
    );
  });

  it("passes the host's errors on with their code, and hides a broken answer behind INTERNAL", async () => {
    const { server } = await serve({ agent: agent() });
    const t = transport(server);
    await expect(
      t.call("ExecuteTool", { sessionId: "s", tool: "Missing", args: {} }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "no tool Missing",
    });
    await expect(
      t.call("ExecuteTool", { sessionId: "s", tool: "Broken", args: {} }),
    ).rejects.toMatchObject({
      code: "INTERNAL",
      message: expect.stringContaining("the agent returned an invalid ExecuteToolResponse"),
    });
    await expect(
      t.call("ExecuteTool", { sessionId: "s", tool: "", args: {} }),
    ).rejects.toMatchObject({
      code: "INVALID_EVENT",
      message: expect.stringContaining("ExecuteToolRequest.tool"),
    });
  });

  it("aborts the host's generation when the caller cancels", async () => {
    const impl = agent();
    const { server } = await serve({ agent: impl });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const iterate = (async () => {
      for await (const e of transport(server).generate(
        { sessionId: "s", prompt: "forever" },
        { signal: controller.signal },
      )) {
        seen.push(e);
        controller.abort();
      }
    })();
    await expect(iterate).rejects.toMatchObject({ code: "ABORTED" });
    expect(seen).toHaveLength(1);
    expect(await impl.aborted).toMatchObject({ code: "ABORTED", message: "the caller cancelled" });
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
