/**
 * What only the WebSocket endpoint does: the first-frame handshake, the Origin check, frame
 * limits and close codes, played by raw `ws` sockets that send what a well-behaved transport
 * never would. Everything both transports share is in the conformance suite.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { createEvent, HookEngine, HookError } from "@a3s-lab/hooks-core";
import { PROTOCOL, WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import { credentials, ServerCredentials } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { ManualTimers } from "../../../../test-support/manual-timers.ts";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import {
  createHookServer,
  type HookServer,
  type HookServerOptions,
} from "../../src/server/create-hook-server.js";
import { useHookServers } from "./hook-server-fixture.js";

const TOKEN = "ws-test-token";
const { serve, cleanup } = useHookServers(TOKEN);

type Frame = Record<string, unknown> & { type: string; id?: string };

/** A raw socket: every frame it gets, the next one of a type, and how it closed. */
function raw(url: string | undefined, headers: Record<string, string> = {}) {
  if (!url) throw new Error("the server has no WebSocket endpoint");
  const socket = new WebSocket(url, PROTOCOL, { headers });
  cleanup.push(() => socket.terminate());
  const frames: Frame[] = [];
  const waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    frames.push(frame);
    for (const w of [...waiters]) {
      if (!w.test(frame)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(frame);
    }
  });
  socket.on("error", () => {});
  const opened = new Promise<void>((resolve) => socket.once("open", () => resolve()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const next = (test: (f: Frame) => boolean) => {
    const seen = frames.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<Frame>((resolve) => waiters.push({ test, resolve }));
  };
  return {
    socket,
    frames,
    opened,
    closed,
    next,
    send: async (frame: Frame | string) => {
      await opened;
      socket.send(typeof frame === "string" ? frame : JSON.stringify(frame));
    },
    /** Send a request and wait for the frame that answers its id. */
    ask: async (frame: Frame & { id: string }) => {
      await opened;
      socket.send(JSON.stringify(frame));
      return next((f) => f.id === frame.id);
    },
    /** Answer every HookEvent from now on with a HookResponse carrying `fields`. */
    answerEvents: (fields: () => Record<string, unknown>) => {
      socket.on("message", (data) => {
        const event = JSON.parse(String(data)) as Frame;
        if (event.type !== "HookEvent") return;
        const { hookId, eventId } = event;
        socket.send(JSON.stringify({ type: "HookResponse", hookId, eventId, ...fields() }));
      });
    },
  };
}

const hello = (clientId = "raw", token: string | null = TOKEN, clientSecret?: string) => ({
  type: "Hello",
  clientId,
  protocol: PROTOCOL,
  ...(token !== null ? { token } : {}),
  ...(clientSecret !== undefined ? { clientSecret } : {}),
});

async function welcomed(server: HookServer, clientId = "raw", headers = {}, clientSecret?: string) {
  const s = raw(server.webSocketUrl, headers);
  await s.send(hello(clientId, TOKEN, clientSecret));
  const welcome = await s.next((f) => f.type === "Welcome");
  return { ...s, welcome };
}

describe("the first frame", () => {
  it("welcomes a client whose Hello carries the token; calls are then answered by id", async () => {
    const { engine, server } = await serve();
    const s = await welcomed(server);
    expect(s.welcome).toEqual({
      type: "Welcome",
      clientId: "raw",
      resumed: false,
      protocol: PROTOCOL,
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(s.socket.protocol).toBe(PROTOCOL);
    expect(
      await s.ask({ type: "RegisterHookRequest", id: "1", eventType: "Stop", hookId: "h" }),
    ).toEqual({ type: "RegisterHookResponse", id: "1", hookId: "h" });
    const listed = await s.ask({ type: "ListHooksRequest", id: "2" });
    expect(listed).toMatchObject({ type: "ListHooksResponse", id: "2", hooks: [{ hookId: "h" }] });
    expect(engine.list().map((h) => h.name)).toEqual(["h"]);
  });

  it.each([
    ["a wrong token", hello("raw", "wrong"), "Hello.token: the token is not valid"],
    ["no token", hello("raw", null), "Hello.token: a token is required"],
    ["another frame first", { type: "ListHooksRequest", id: "1" }, "got a ListHooksRequest"],
    ["a malformed client id", hello("no spaces"), "clientId"],
    ["an unknown protocol", { ...hello(), protocol: "a3s.hooks.v9" }, "Hello.protocol"],
    ["garbage", "{not json", "not JSON"],
  ])("closes 4401 after an Error frame for %s, and registers nothing", async (_, first, says) => {
    const { server } = await serve();
    const s = raw(server.webSocketUrl);
    await s.send(first as Frame);
    const { code } = await s.closed;
    expect(code).toBe(WS_CLOSE_CODES.unauthenticated);
    expect(s.frames).toEqual([
      expect.objectContaining({
        type: "Error",
        code: "UNAUTHENTICATED",
        message: expect.stringContaining(says),
      }),
    ]);
    expect(server.hub.clients()).toEqual([]);
  });

  it("closes 4401 cleanly when the quoted protocol cuts a character at the reason's limit, and keeps serving", async () => {
    const { server } = await serve();
    // 65 ASCII characters put byte 120 of the reason in the middle of the first two-byte é.
    const protocol = `${"a".repeat(65)}${"\u00e9".repeat(500)}`;
    const s = raw(server.webSocketUrl);
    await s.send({ ...hello(), protocol });
    const { code, reason } = await s.closed;
    expect(code).toBe(WS_CLOSE_CODES.unauthenticated);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).toMatch(/^Hello\.protocol: .*"a{65}\u00e9*…$/);
    expect(s.frames).toEqual([
      expect.objectContaining({
        type: "Error",
        code: "UNAUTHENTICATED",
        message: expect.stringContaining(protocol),
      }),
    ]);
    expect((await welcomed(server, "after")).welcome.type).toBe("Welcome");
  });

  it("closes 4408 when no Hello arrives in time", async () => {
    const { server } = await serve({ webSocket: { authTimeoutMs: 50 } });
    const s = raw(server.webSocketUrl);
    const { code, reason } = await s.closed;
    expect(code).toBe(WS_CLOSE_CODES.authTimeout);
    expect(reason).toContain("within 50 ms");
  });

  it("never reads a token from the URL", async () => {
    const { server } = await serve({ webSocket: { authTimeoutMs: 50 } });
    const s = raw(`${server.webSocketUrl}?token=${TOKEN}`);
    expect((await s.closed).code).toBe(WS_CLOSE_CODES.authTimeout);
  });
});

describe("the Origin check", () => {
  it("refuses a page from another site with 4403 before reading a frame", async () => {
    const { server } = await serve();
    const s = raw(server.webSocketUrl, { origin: "http://evil.example" });
    s.socket.once("open", () => s.socket.send(JSON.stringify(hello())));
    const { code, reason } = await s.closed;
    expect(code).toBe(WS_CLOSE_CODES.forbiddenOrigin);
    expect(reason).toBe("origin http://evil.example is not allowed");
    expect(s.frames).toEqual([]);
    expect(server.hub.clients()).toEqual([]);
  });

  it("names a hostile Origin in the close reason without breaking the 123-byte limit", async () => {
    const { server } = await serve();
    const s = raw(server.webSocketUrl, { origin: `http://${"\u00e9".repeat(300)}.example` });
    const { code, reason } = await s.closed;
    expect(code).toBe(WS_CLOSE_CODES.forbiddenOrigin);
    expect(reason).toMatch(/^origin http:\/\/\?+ is not allowed$/);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });

  it("lets in the pages the server serves itself, under loopback names, and programs without an Origin", async () => {
    const { server } = await serve();
    for (const origin of [
      `http://127.0.0.1:${server.port}`,
      `http://localhost:${server.port}`,
      `http://[::1]:${server.port}`,
    ]) {
      const s = await welcomed(server, "page", { origin });
      expect(s.welcome.type).toBe("Welcome");
      s.socket.close();
    }
    const other = raw(server.webSocketUrl, { origin: `http://127.0.0.1:${server.port + 1}` });
    expect((await other.closed).code).toBe(WS_CLOSE_CODES.forbiddenOrigin);
    expect((await welcomed(server, "program")).welcome.type).toBe("Welcome");
  });

  it("follows an explicit allow-list, or lets every page in with *", async () => {
    const { server } = await serve({ webSocket: { allowedOrigins: ["https://app.example"] } });
    expect((await welcomed(server, "a", { origin: "https://app.example" })).welcome.type).toBe(
      "Welcome",
    );
    const own = raw(server.webSocketUrl, { origin: `http://127.0.0.1:${server.port}` });
    expect((await own.closed).code).toBe(WS_CLOSE_CODES.forbiddenOrigin);
    const open = await serve({ webSocket: { allowedOrigins: "*" } });
    expect((await welcomed(open.server, "b", { origin: "http://any.example" })).welcome.type).toBe(
      "Welcome",
    );
    await expect(
      createHookServer({
        engine: new HookEngine(),
        port: 0,
        token: TOKEN,
        webSocket: { allowedOrigins: ["https://app.example/path"] },
      }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("allowedOrigins"),
    });
  });
});

describe("frame limits", () => {
  it.each([
    ["webSocket.frameRate", { webSocket: { frameRate: { burst: 0, perSecond: 1 } } }],
    ["registrationRate", { registrationRate: { burst: 2, perSecond: -1 } }],
  ])("refuses a bad %s before listening, naming the field", async (field, options) => {
    await expect(
      createHookServer({ engine: new HookEngine(), port: 0, token: TOKEN, ...options }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining(field),
    });
  });

  it("closes 4413 after an Error frame for a frame over the size limit", async () => {
    const { server } = await serve({ maxMessageBytes: 64 * 1024 });
    const s = await welcomed(server);
    await s.send({ type: "ListHooksRequest", id: "1", eventType: "x".repeat(100_000) });
    expect((await s.closed).code).toBe(WS_CLOSE_CODES.frameTooLarge);
    expect(s.frames.at(-1)).toMatchObject({
      type: "Error",
      code: "LIMIT_EXCEEDED",
      message: "frame: larger than 65536 bytes, the most this server accepts",
    });
  });

  it("closes 4429 when frames come faster than allowed", async () => {
    // The server's clock stands still, so the count is exact however long a loaded machine
    // takes between frames; on the real clock this rate would let every frame through.
    const { server } = await serve({
      timers: new ManualTimers(),
      webSocket: { frameRate: { burst: 5, perSecond: 1000 } },
    });
    const s = await welcomed(server);
    for (let i = 0; i < 10; i++) await s.send({ type: "ListHooksRequest", id: String(i) });
    expect((await s.closed).code).toBe(WS_CLOSE_CODES.rateLimited);
    // The Hello and four requests fit the burst; the sixth frame ended the socket.
    expect(s.frames.filter((f) => f.type === "ListHooksResponse")).toHaveLength(4);
    expect(s.frames.at(-1)).toMatchObject({ type: "Error", code: "LIMIT_EXCEEDED" });
  });

  it("never counts answers to its own firings against the frame rate; unsolicited ones count", async () => {
    const { engine, server } = await serve({
      webSocket: { frameRate: { burst: 5, perSecond: 1 } },
    });
    const s = await welcomed(server);
    await s.ask({ type: "RegisterHookRequest", id: "1", eventType: "PreToolUse", hookId: "h" });
    s.answerEvents(() => ({}));
    // Forty answers, eight times the burst: a busy agent keeps its client.
    for (let i = 0; i < 40; i++) {
      const result = await engine.fire(
        createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
      );
      expect(result.outcomes[0]?.status).toBe("ok");
    }
    expect(s.socket.readyState).toBe(WebSocket.OPEN);
    // Answers nobody asked for are frames like any other.
    for (let i = 0; i < 10; i++)
      await s.send({ type: "HookResponse", hookId: "h", eventId: `never-sent-${i}` });
    expect((await s.closed).code).toBe(WS_CLOSE_CODES.rateLimited);
  });

  it("closes 1003 for a binary frame", async () => {
    const { server } = await serve();
    const s = await welcomed(server);
    s.socket.send(Buffer.from("{}"));
    expect((await s.closed).code).toBe(WS_CLOSE_CODES.unsupportedData);
  });
});

describe("hostile frames after the handshake", () => {
  it("answers malformed frames with an Error naming the field, and keeps the socket", async () => {
    const { engine, server } = await serve();
    const s = await welcomed(server);
    await s.send("{not json");
    expect(await s.next((f) => f.type === "Error")).toMatchObject({
      code: "INVALID_OUTPUT",
      message: expect.stringContaining("frame: not JSON"),
    });
    expect(await s.ask({ type: "Explode", id: "e" })).toMatchObject({
      type: "Error",
      message: 'frame.type: unknown message type "Explode"',
    });
    expect(
      await s.ask({
        type: "RegisterHookRequest",
        id: "r",
        eventType: "Stop",
        hookId: "x".repeat(500),
      }),
    ).toMatchObject({
      type: "Error",
      code: "INVALID_CONFIG",
      message: expect.stringContaining("RegisterHookRequest.hookId"),
    });
    expect(
      await s.ask({ type: "Welcome", id: "w", clientId: "raw", resumed: false, protocol: "x" }),
    ).toMatchObject({
      type: "Error",
      message: "frame.type: Welcome is not a request a client sends",
    });
    expect(
      await s.ask({ type: "ExecuteToolRequest", id: "t", sessionId: "s", tool: "" }),
    ).toMatchObject({
      type: "Error",
      code: "INVALID_EVENT",
      message: expect.stringContaining("ExecuteToolRequest.tool"),
    });
    await s.send({ type: "ListHooksRequest" });
    expect(
      await s.next((f) => f.type === "Error" && String(f.message).startsWith("frame.id")),
    ).toBeTruthy();
    expect(await s.ask({ type: "ListHooksRequest", id: "ok" })).toEqual({
      type: "ListHooksResponse",
      id: "ok",
      hooks: [],
    });
    expect(engine.size()).toBe(0);
  });

  it("fails a firing at once when its answer is malformed, and counts it against the hook", async () => {
    const { engine, server } = await serve();
    const s = await welcomed(server);
    await s.ask({ type: "RegisterHookRequest", id: "1", eventType: "PreToolUse", hookId: "h" });
    s.answerEvents(() => ({ action: "explode" }));
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
    );
    expect(result.outcomes[0]?.error?.message).toContain("HookResponse.action");
    const listed = await s.ask({ type: "ListHooksRequest", id: "2" });
    expect(listed).toMatchObject({
      hooks: [{ counters: { runs: 1, failures: 1, rejectedResponses: 1 } }],
    });
  });

  it("takes answers with or without a frame id, and rich answers through the schema", async () => {
    const { engine, server } = await serve();
    const s = await welcomed(server);
    await s.ask({ type: "RegisterHookRequest", id: "1", eventType: "PreToolUse", hookId: "h" });
    const answers: Record<string, unknown>[] = [
      { action: "block", reason: "by the short cut" },
      { id: "a1", action: "block", reason: "with an id" },
      { action: "continue", modified: { args: { command: "ls -la" } }, systemMessage: "rewritten" },
    ];
    s.answerEvents(() => answers.shift()!);
    const fire = () =>
      engine.fire(
        createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
      );
    expect((await fire()).reason).toBe("by the short cut");
    expect((await fire()).reason).toBe("with an id");
    const rich = await fire();
    expect(rich.event.args).toEqual({ command: "ls -la" });
    expect(rich.systemMessages).toEqual(["rewritten"]);
  });

  it("replaces an older socket of the same client: 4409 for the old one, resumed for the new", async () => {
    const { server } = await serve();
    const first = await welcomed(server, "same");
    await first.ask({ type: "RegisterHookRequest", id: "1", eventType: "Stop" });
    // Without the secret of the first Welcome, the same id is refused and the first socket stays.
    const impostor = raw(server.webSocketUrl, {});
    await impostor.send(hello("same"));
    expect((await impostor.closed).code).toBe(WS_CLOSE_CODES.unauthenticated);
    expect(impostor.frames.at(-1)).toMatchObject({
      type: "Error",
      code: "UNAUTHENTICATED",
      path: ["x-a3s-client-secret"],
    });
    const second = await welcomed(server, "same", {}, String(first.welcome.clientSecret));
    expect(second.welcome.resumed).toBe(true);
    expect(second.welcome.clientSecret).toBe(first.welcome.clientSecret);
    expect((await first.closed).code).toBe(WS_CLOSE_CODES.replaced);
    expect(first.frames.at(-1)).toMatchObject({ type: "Error", code: "ABORTED" });
  });
});

describe("a client that goes away", () => {
  // A fail-closed hook that blocks everything: the question is how long it outlives its socket.
  async function guarded(options: Partial<HookServerOptions> = {}) {
    const { engine, server } = await serve({ reconnectWindowMs: 60_000, ...options });
    const s = await welcomed(server, "page");
    await s.ask({
      type: "RegisterHookRequest",
      id: "1",
      eventType: "PreToolUse",
      hookId: "approval",
      config: { failBehavior: "block" },
    });
    const expired = new Promise((resolve) => server.on("client_expired", resolve));
    return { engine, server, s, expired };
  }

  it("removes its hooks at once when it closes with 1001, as a browser page that unloads does", async () => {
    const { engine, server, s, expired } = await guarded();
    s.socket.close(WS_CLOSE_CODES.goingAway);
    expect(await expired).toMatchObject({ clientId: "page", removedHooks: 1 });
    expect(engine.size()).toBe(0);
    expect(server.hub.clients()).toEqual([]);
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: {} }),
    );
    expect(result.action).toBe("continue");
  });

  it("keeps its fail-closed hooks for the reconnect window after any other close", async () => {
    const { engine, server, s } = await guarded();
    s.socket.close(WS_CLOSE_CODES.normal);
    await s.closed;
    await new Promise<void>((resolve) => {
      const check = () =>
        server.hub.clients()[0]?.connected === false ? resolve() : setImmediate(check);
      check();
    });
    expect(engine.size()).toBe(1);
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: {} }),
    );
    expect(result.action).toBe("block");
  });
});

describe("one port for gRPC, WebSocket and the host's page", () => {
  it("routes by the first bytes: HTTP/2 to gRPC, HTTP/1.1 to the page and the WebSocket", async () => {
    const { server } = await serve({
      httpHandler: (req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`page at ${req.url}`);
      },
    });
    expect(server.webSocketUrl).toBe(`ws://127.0.0.1:${server.port}/`);
    const page = await fetch(`http://${server.address}/index.html`);
    expect(await page.text()).toBe("page at /index.html");
    const grpc = createGrpcTransport({ address: server.address, clientId: "g", token: TOKEN });
    cleanup.push(() => grpc.close());
    // gRPC answers (a hook call before any stream is out of order, which only gRPC can say).
    await expect(grpc.call("ListHooks", {})).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    expect((await welcomed(server)).welcome.type).toBe("Welcome");
  });

  it("answers 404 to plain HTTP without a handler, and 400 to garbage", async () => {
    const { server } = await serve();
    expect((await fetch(`http://${server.address}/`)).status).toBe(404);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.write("GARBAGE\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("close", () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("serves gRPC alone with webSocket: false", async () => {
    const { server } = await serve({ webSocket: false });
    expect(server.webSocketUrl).toBeUndefined();
    const s = raw(`ws://${server.address}/`);
    let opened = false;
    void s.opened.then(() => (opened = true));
    expect((await s.closed).code).toBe(1006);
    expect(opened).toBe(false);
    const grpc = createGrpcTransport({ address: server.address, clientId: "g", token: TOKEN });
    cleanup.push(() => grpc.close());
    // gRPC answers (a hook call before any stream is out of order, which only gRPC can say).
    await expect(grpc.call("ListHooks", {})).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
  });

  it("adds a WebSocket port by option, and its pages' origin is allowed", async () => {
    const { server } = await serve({ webSocket: { port: 0 } });
    const wsPort = Number(new URL(server.webSocketUrl!).port);
    expect(wsPort).not.toBe(server.port);
    const s = await welcomed(server, "page", { origin: `http://127.0.0.1:${wsPort}` });
    expect(s.welcome.type).toBe("Welcome");
  });

  it("with TLS, leaves gRPC the port and serves the WebSocket only on its own port", async () => {
    const dir = new URL("../fixtures/tls/", import.meta.url);
    const cert = readFileSync(new URL("server.crt", dir));
    const key = readFileSync(new URL("server.key", dir));
    const tls = ServerCredentials.createSsl(null, [{ cert_chain: cert, private_key: key }]);
    const alone = await serve({ credentials: tls });
    expect(alone.server.webSocketUrl).toBeUndefined();
    const { server } = await serve({ credentials: tls, webSocket: { port: 0 } });
    const grpc = createGrpcTransport({
      address: `localhost:${server.port}`,
      clientId: "g",
      token: TOKEN,
      credentials: credentials.createSsl(cert),
    });
    cleanup.push(() => grpc.close());
    // gRPC answers (a hook call before any stream is out of order, which only gRPC can say).
    await expect(grpc.call("ListHooks", {})).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    expect((await welcomed(server)).welcome.type).toBe("Welcome");
  });
});

describe("Cancel", () => {
  it("aborts the call it names, which then sends nothing more; other calls go on", async () => {
    const aborted: unknown[] = [];
    const { server } = await serve({
      agent: {
        createSession: async () => ({ sessionId: "s" }),
        destroySession: async () => ({ destroyed: true }),
        executeTool: async () => ({ success: true, output: "", durationMs: 0 }),
        async *generate(_request, ctx) {
          yield { progress: { kind: "text", text: "working" } };
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
          );
          aborted.push(ctx.signal.reason);
          yield { result: { text: "too late" } };
        },
      },
    });
    const s = await welcomed(server);
    await s.ask({ type: "GenerateRequest", id: "g", sessionId: "s", prompt: "go" });
    await s.send({ type: "Cancel", id: "g" });
    await expect.poll(() => aborted.length).toBe(1);
    expect(HookError.is(aborted[0]) && aborted[0].code).toBe("ABORTED");
    expect(await s.ask({ type: "CreateSessionRequest", id: "c" })).toMatchObject({
      type: "CreateSessionResponse",
      sessionId: "s",
    });
    expect(s.frames.filter((f) => f.id === "g").map((f) => f.type)).toEqual(["GenerateEvent"]);
  });

  it("answers a malformed Cancel with an Error naming the field, and ignores an unknown id", async () => {
    const { server } = await serve();
    const s = await welcomed(server);
    await s.send({ type: "Cancel", id: "nobody" });
    await s.send({ type: "Cancel", id: "x".repeat(129) });
    expect(await s.next((f) => f.type === "Error")).toMatchObject({
      code: "INVALID_OUTPUT",
      message: expect.stringMatching(/^id: /),
    });
    await s.send({ type: "Cancel" });
    expect(
      await s.next((f) => f.type === "Error" && String(f.message).startsWith("Cancel.id")),
    ).toMatchObject({ code: "INVALID_OUTPUT" });
    expect(s.frames.filter((f) => f.type === "Error")).toHaveLength(2);
    expect(await s.ask({ type: "ListHooksRequest", id: "ok" })).toMatchObject({ hooks: [] });
  });
});
