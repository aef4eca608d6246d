import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { HookError } from "@a3s-lab/hooks-core";
import { type HookEventMessage, type Transport, WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { type AgentSocket, type Frame, ScriptedAgent } from "../test/scripted-agent.js";
import type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
import { createWebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(
  agentOptions: ConstructorParameters<typeof ScriptedAgent>[0] = {},
  options: Partial<WebSocketTransportOptions> = {},
) {
  const agent = new ScriptedAgent(agentOptions);
  cleanup.push(() => agent.close());
  const transport = createWebSocketTransport({
    address: await agent.address(),
    clientId: "page-1",
    token: "s3cret",
    WebSocket,
    ...options,
  });
  cleanup.push(() => transport.close());
  return { agent, transport };
}

/** Answer every request of `type` on `socket` with `answer(frame)`. */
function answer(socket: AgentSocket, type: string, reply: (frame: Frame) => Frame | string) {
  socket.ws.on("message", (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    if (frame.type === type) socket.send(reply(frame));
  });
}

function streamOf(transport: Transport) {
  const events: HookEventMessage[] = [];
  const invalid: HookError[] = [];
  let onClose!: (error: HookError | undefined) => void;
  const closed = new Promise<HookError | undefined>((resolve) => (onClose = resolve));
  const opened = transport.openHookStream({
    onEvent: (e) => events.push(e),
    onInvalid: (e) => invalid.push(e),
    onClose: (e) => onClose(e),
  });
  return { events, invalid, closed, opened };
}

/**
 * `ws`'s WebSocket that aborts `controller` one microtask after the transport has read the
 * Welcome: after the transport's wait for it has settled, before the call sends its request.
 */
function abortingAfterWelcome(controller: AbortController): WebSocketConstructor {
  return class implements WebSocketLike {
    readonly #ws: WebSocket;
    constructor(url: string, protocols?: string | string[]) {
      this.#ws = new WebSocket(url, protocols);
    }
    get readyState() {
      return this.#ws.readyState;
    }
    get protocol() {
      return this.#ws.protocol;
    }
    send(data: string) {
      this.#ws.send(data);
    }
    close(code?: number, reason?: string) {
      this.#ws.close(code, reason);
    }
    addEventListener(
      type: "open" | "message" | "close" | "error",
      listener: (event: never) => void,
    ): void {
      this.#ws.addEventListener(type as "message", (event) => {
        (listener as (event: unknown) => void)(event);
        if (type === "message" && JSON.parse(String(event.data)).type === "Welcome") {
          queueMicrotask(() => controller.abort());
        }
      });
    }
  };
}

const event = (over: Record<string, unknown> = {}) => ({
  type: "HookEvent",
  hookId: "h",
  eventId: "e1",
  eventType: "PreToolUse",
  sessionId: "s",
  timestamp: 1,
  deadlineMs: 2,
  payload: { tool: "Bash" },
  ...over,
});

describe("createWebSocketTransport: the handshake", () => {
  it("authenticates in its first frame, never in the URL, offering the protocol", async () => {
    const { agent, transport } = await setup({ resumed: true });
    const { opened } = streamOf(transport);
    const stream = await opened;
    expect(stream.resumed).toBe(true);
    const socket = await agent.socket();
    expect(socket.frames[0]).toEqual({
      type: "Hello",
      clientId: "page-1",
      token: "s3cret",
      protocol: "a3s.hooks.v1",
    });
    expect(socket.request.url).toBe("/");
    expect(socket.request.headers["sec-websocket-protocol"]).toBe("a3s.hooks.v1");
  });

  it("presents a resume secret kept from before (a reloaded page's) and hands over each new one", async () => {
    const secrets: string[] = [];
    const { agent, transport } = await setup(
      { clientSecret: "from-this-welcome" },
      { clientSecret: "kept-from-before", onClientSecret: (s) => secrets.push(s) },
    );
    await streamOf(transport).opened;
    const socket = await agent.socket();
    expect(socket.frames[0]).toMatchObject({ type: "Hello", clientSecret: "kept-from-before" });
    expect(secrets).toEqual(["from-this-welcome"]);
    // The next socket presents the newest secret.
    socket.ws.close(WS_CLOSE_CODES.goingAway);
    await socket.closed;
    await streamOf(transport).opened;
    expect((await agent.socket(1)).frames[0]).toMatchObject({ clientSecret: "from-this-welcome" });
  });

  it("reports the server's refusal with its code and message: 4401, 4403", async () => {
    for (const [code, errorCode, message] of [
      [WS_CLOSE_CODES.unauthenticated, "UNAUTHENTICATED", "Hello.token: the token is not valid"],
      [WS_CLOSE_CODES.forbiddenOrigin, "PERMISSION_DENIED", "origin x is not allowed"],
    ] as const) {
      const { agent, transport } = await setup({ welcome: false });
      const { opened } = streamOf(transport);
      const socket = await agent.socket();
      await socket.next((f) => f.type === "Hello");
      if (code === WS_CLOSE_CODES.unauthenticated)
        socket.send({ type: "Error", code: "UNAUTHENTICATED", message, path: ["Hello", "token"] });
      socket.ws.close(code, message);
      await expect(opened).rejects.toMatchObject({ code: errorCode, message });
    }
  });

  it("gives up on a server that never welcomes it", async () => {
    const { transport } = await setup({ welcome: false }, { handshakeTimeoutMs: 30 });
    await expect(transport.call("ListHooks", {})).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("did not accept the connection within 30 ms"),
    });
  });

  it("says at once that a port where nothing listens refused it, as the gRPC transport does", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    // A handshake timeout far beyond the test's: only the refusal itself can answer in time.
    const transport = createWebSocketTransport({
      address,
      clientId: "c",
      WebSocket,
      handshakeTimeoutMs: 600_000,
    });
    cleanup.push(() => transport.close());
    const error = (await transport.call("ListHooks", {}).catch((e: unknown) => e)) as HookError;
    expect(error).toMatchObject({
      code: "UNAVAILABLE",
      message: `connection refused by ${address}`,
      details: { connectionRefused: true, closeCode: 1006 },
    });
  });

  it("keeps the runtime's words, and no refusal, when something else answers", async () => {
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    const transport = createWebSocketTransport({
      address: `127.0.0.1:${port}`,
      clientId: "c",
      WebSocket,
    });
    cleanup.push(() => transport.close());
    const error = (await transport.call("ListHooks", {}).catch((e: unknown) => e)) as HookError;
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toBe(
      `cannot connect to ws://127.0.0.1:${port}/: Unexpected server response: 404`,
    );
    expect(error.details.connectionRefused).toBeUndefined();
  });

  it("takes a socket a browser closed before it opened, with no reason given, as refused", async () => {
    const transport = createWebSocketTransport({
      address: "127.0.0.1:9",
      clientId: "c",
      WebSocket: browserRefusal(),
      handshakeTimeoutMs: 600_000,
    });
    cleanup.push(() => transport.close());
    await expect(transport.call("ListHooks", {})).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message:
        "could not connect to ws://127.0.0.1:9/ (refused or unreachable; the browser gives no reason)",
      details: { connectionRefused: true, closeCode: 1006 },
    });
  });
});

/** A port that was just free: bound, then released, so connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A WebSocket that fails as a browser's does on a refused port: a bare error, then 1006. */
function browserRefusal(): WebSocketConstructor {
  return class {
    readonly readyState = 3;
    readonly protocol = "";
    #listeners = new Map<string, ((event: unknown) => void)[]>();
    constructor() {
      setTimeout(() => {
        for (const fn of this.#listeners.get("error") ?? []) fn({ type: "error" });
        for (const fn of this.#listeners.get("close") ?? []) fn({ code: 1006, reason: "" });
      });
    }
    send() {}
    close() {}
    addEventListener(type: string, listener: (event: never) => void) {
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener as never]);
    }
  } as unknown as WebSocketConstructor;
}

describe("createWebSocketTransport: calls", () => {
  it("pairs answers with requests by id, in whatever order they come", async () => {
    const { agent, transport } = await setup();
    const a = transport.call("RegisterHook", { eventType: "Stop", hookId: "a" });
    const b = transport.call("RegisterHook", { eventType: "Stop", hookId: "b" });
    const socket = await agent.socket();
    const [fa, fb] = await Promise.all([
      socket.next((f) => f.hookId === "a"),
      socket.next((f) => f.hookId === "b"),
    ]);
    expect(fa).toMatchObject({ type: "RegisterHookRequest", eventType: "Stop" });
    socket.send({ type: "RegisterHookResponse", id: fb.id, hookId: "b" });
    socket.send({ type: "RegisterHookResponse", id: fa.id, hookId: "a" });
    expect(await a).toEqual({ hookId: "a" });
    expect(await b).toEqual({ hookId: "b" });
  });

  it("rejects with the server's Error: its code and path, an unknown code as INTERNAL", async () => {
    const { agent, transport } = await setup();
    const first = transport.call("UnregisterHook", { hookId: "x" });
    const socket = await agent.socket();
    let n = 0;
    answer(socket, "UnregisterHookRequest", (f) =>
      n++ === 0
        ? {
            type: "Error",
            id: f.id,
            code: "PERMISSION_DENIED",
            message: "not yours",
            path: ["hookId"],
          }
        : { type: "Error", id: f.id, code: "FROM_THE_FUTURE", message: "?" },
    );
    await expect(first).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
      message: "not yours",
      path: ["hookId"],
    });
    await expect(transport.call("UnregisterHook", { hookId: "x" })).rejects.toMatchObject({
      code: "INTERNAL",
    });
  });

  it("rejects a malformed answer with an error naming the field, and keeps the socket", async () => {
    const { agent, transport } = await setup();
    const call = transport.call("ListHooks", {});
    const socket = await agent.socket();
    const request = await socket.next((f) => f.type === "ListHooksRequest");
    socket.send("{garbage");
    socket.send({ type: "ListHooksResponse", id: request.id, hooks: [{ hookId: "bad id!" }] });
    await expect(call).rejects.toMatchObject({
      code: "INVALID_OUTPUT",
      message: expect.stringContaining("ListHooksResponse.hooks"),
    });
    answer(socket, "ListHooksRequest", (f) => ({ type: "ListHooksResponse", id: f.id }));
    expect(await transport.call("ListHooks", {})).toEqual({ hooks: [] });
    expect(agent.sockets).toHaveLength(1);
  });

  it("cancels on abort: rejects at once and tells the server to stop", async () => {
    const { agent, transport } = await setup();
    const controller = new AbortController();
    const call = transport.call(
      "ExecuteTool",
      { sessionId: "s", tool: "Bash", args: {} },
      {
        signal: controller.signal,
      },
    );
    const socket = await agent.socket();
    const request = await socket.next((f) => f.type === "ExecuteToolRequest");
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "ABORTED" });
    expect(await socket.next((f) => f.type === "Cancel")).toEqual({
      type: "Cancel",
      id: request.id,
    });
    // A late answer for the cancelled call is ignored.
    socket.send({ type: "ExecuteToolResponse", id: request.id, success: true });
  });

  it.each(["call", "generate"] as const)(
    "%s: an abort after the welcome, before the request is sent, sends nothing",
    async (kind) => {
      const controller = new AbortController();
      const { signal } = controller;
      const { agent, transport } = await setup({}, { WebSocket: abortingAfterWelcome(controller) });
      const run =
        kind === "call"
          ? transport.call("ListHooks", {}, { signal })
          : (async () => {
              for await (const _ of transport.generate(
                { sessionId: "s", prompt: "x" },
                { signal },
              )) {
                // nothing may arrive
              }
            })();
      await expect(run).rejects.toMatchObject({ code: "ABORTED" });
      // The socket stays open; the agent sees the next request right after the Hello.
      const socket = await agent.socket();
      const probe = transport.call("RegisterHook", { eventType: "Stop", hookId: "probe" });
      const request = await socket.next((f) => f.type === "RegisterHookRequest");
      socket.send({ type: "RegisterHookResponse", id: request.id, hookId: "probe" });
      expect(await probe).toEqual({ hookId: "probe" });
      expect(socket.frames.map((f) => f.type)).toEqual(["Hello", "RegisterHookRequest"]);
    },
  );

  it("streams generate: progress, then the result; an early stop cancels", async () => {
    const { agent, transport } = await setup();
    const first = transport.generate({ sessionId: "s", prompt: "hi" });
    const iterator = first[Symbol.asyncIterator]();
    const pending = iterator.next();
    const socket = await agent.socket();
    const request = await socket.next((f) => f.type === "GenerateRequest");
    expect(request).toMatchObject({ sessionId: "s", prompt: "hi" });
    socket.send({ type: "GenerateEvent", id: request.id, progress: { kind: "text", text: "…" } });
    socket.send({ type: "GenerateEvent", id: request.id, result: { text: "done" } });
    expect((await pending).value).toEqual({ progress: { kind: "text", text: "…" } });
    expect((await iterator.next()).value).toEqual({ result: { text: "done" } });
    expect((await iterator.next()).done).toBe(true);

    const second = transport.generate({ sessionId: "s", prompt: "long" })[Symbol.asyncIterator]();
    const firstProgress = second.next();
    const r2 = await socket.next((f) => f.type === "GenerateRequest" && f.prompt === "long");
    socket.send({ type: "GenerateEvent", id: r2.id, progress: { kind: "text" } });
    expect((await firstProgress).value).toEqual({ progress: { kind: "text" } });
    await second.return?.(undefined);
    expect(await socket.next((f) => f.type === "Cancel")).toEqual({ type: "Cancel", id: r2.id });
  });

  it("fails a generate with the server's Error", async () => {
    const { agent, transport } = await setup();
    const run = (async () => {
      for await (const _ of transport.generate({ sessionId: "gone", prompt: "x" })) {
        // nothing arrives
      }
    })();
    const socket = await agent.socket();
    const request = await socket.next((f) => f.type === "GenerateRequest");
    socket.send({ type: "Error", id: request.id, code: "NOT_FOUND", message: "no session gone" });
    await expect(run).rejects.toMatchObject({ code: "NOT_FOUND", message: "no session gone" });
  });
});

describe("createWebSocketTransport: the hook stream", () => {
  it("hands firings to onEvent, reports a malformed one, and sends answers", async () => {
    const { agent, transport } = await setup();
    const { events, invalid, opened } = streamOf(transport);
    const stream = await opened;
    const socket = await agent.socket();
    socket.send(event());
    socket.send(event({ eventId: "", hookId: "h2" }));
    socket.send(event({ eventId: "e3", cancel: true, payload: undefined }));
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[0]).toMatchObject({ hookId: "h", eventId: "e1", payload: { tool: "Bash" } });
    expect(events[1]).toMatchObject({ eventId: "e3", cancel: true });
    expect(invalid[0]?.message).toContain("HookEvent.eventId");
    stream.send({ hookId: "h", eventId: "e1", action: "block", reason: "no" });
    expect(await socket.next((f) => f.type === "HookResponse")).toEqual({
      type: "HookResponse",
      hookId: "h",
      eventId: "e1",
      action: "block",
      reason: "no",
    });
  });

  it("answers a firing at once when no stream is open on the socket", async () => {
    const { agent, transport } = await setup();
    const call = transport.call("ListHooks", {});
    const socket = await agent.socket();
    answer(socket, "ListHooksRequest", (f) => ({ type: "ListHooksResponse", id: f.id }));
    await call;
    socket.send(event());
    expect(await socket.next((f) => f.type === "HookResponse")).toMatchObject({
      hookId: "h",
      eventId: "e1",
      error: "no hook stream is open on this connection",
    });
  });

  it("reports a dropped connection to the stream and to calls in flight; the next call reconnects", async () => {
    const { agent, transport } = await setup();
    const { closed, opened } = streamOf(transport);
    await opened;
    const call = transport.call("ListHooks", {});
    const socket = await agent.socket();
    await socket.next((f) => f.type === "ListHooksRequest");
    socket.ws.terminate();
    expect(await closed).toMatchObject({ code: "UNAVAILABLE" });
    await expect(call).rejects.toMatchObject({ code: "UNAVAILABLE" });
    const again = transport.call("ListHooks", {});
    const second = await agent.socket(1);
    answer(second, "ListHooksRequest", (f) => ({ type: "ListHooksResponse", id: f.id }));
    expect(await again).toEqual({ hooks: [] });
  });

  it("reads the server's going away (1001) and replacement (4409)", async () => {
    const { agent, transport } = await setup();
    const first = streamOf(transport);
    await first.opened;
    (await agent.socket()).ws.close(WS_CLOSE_CODES.goingAway, "");
    expect(await first.closed).toMatchObject({
      code: "UNAVAILABLE",
      message: "the hook server is closing",
    });
    const second = streamOf(transport);
    await second.opened;
    const socket = await agent.socket(1);
    socket.send({
      type: "Error",
      code: "ABORTED",
      message: "replaced by a newer stream of the same client",
    });
    socket.ws.close(WS_CLOSE_CODES.replaced, "replaced");
    expect(await second.closed).toMatchObject({ code: "ABORTED" });
  });

  it("closes the stream on purpose: onClose without an error, the server sees 1000", async () => {
    const { agent, transport } = await setup();
    const { closed, opened } = streamOf(transport);
    const stream = await opened;
    stream.close();
    expect(await closed).toBeUndefined();
    expect((await (await agent.socket()).closed).code).toBe(1000);
  });

  it("ends a socket that sends binary frames", async () => {
    const { agent, transport } = await setup();
    const { closed, opened } = streamOf(transport);
    await opened;
    (await agent.socket()).ws.send(Buffer.from([1, 2, 3]));
    expect(await closed).toMatchObject({ code: "INVALID_OUTPUT" });
  });

  it("closes for good: open streams end, later calls are refused", async () => {
    const { transport } = await setup();
    const { closed, opened } = streamOf(transport);
    await opened;
    await transport.close();
    expect(await closed).toBeUndefined();
    await expect(transport.call("ListHooks", {})).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: "the transport is closed",
    });
  });
});

describe("createWebSocketTransport: options", () => {
  it("refuses a bad address, client id or a runtime without WebSocket, naming the option", () => {
    expect(() => createWebSocketTransport({ address: "", clientId: "c", WebSocket })).toThrow(
      "options.address",
    );
    expect(() =>
      createWebSocketTransport({ address: "ftp://x", clientId: "c", WebSocket }),
    ).toThrow("unsupported scheme ftp:");
    expect(() =>
      createWebSocketTransport({ address: "127.0.0.1:1", clientId: "no spaces", WebSocket }),
    ).toThrow("options.clientId");
    for (const clientSecret of ["", "x".repeat(257), 42]) {
      expect(() =>
        createWebSocketTransport({
          address: "127.0.0.1:1",
          clientId: "c",
          WebSocket,
          clientSecret: clientSecret as string,
        }),
      ).toThrow("options.clientSecret");
    }
    expect(() =>
      createWebSocketTransport({
        address: "127.0.0.1:1",
        clientId: "c",
        WebSocket,
        onClientSecret: "no" as never,
      }),
    ).toThrow("options.onClientSecret");
    vi.stubGlobal("WebSocket", undefined);
    expect(() => createWebSocketTransport({ address: "127.0.0.1:1", clientId: "c" })).toThrow(
      "options.WebSocket",
    );
    vi.unstubAllGlobals();
  });
});

describe("createWebSocketTransport: plaintext to another machine", () => {
  it("refuses ws:// to a host that is not this machine, naming both ways out", () => {
    for (const address of ["ws://agent.example/", "http://10.0.0.5:16300", "agent.example:16300"]) {
      expect(
        () => createWebSocketTransport({ address, clientId: "c", token: "t", WebSocket }),
        address,
      ).toThrow(
        expect.objectContaining({
          code: "INVALID_CONFIG",
          message: expect.stringMatching(/wss:\/\/.*allowPlaintextRemote: true/),
        }),
      );
    }
  });

  it("accepts wss://, ws:// to this machine, or the explicit opt-in", async () => {
    const made = [
      "wss://agent.example/",
      "https://agent.example",
      "ws://127.0.0.1:1/",
      "localhost:1",
      "[::1]:1",
    ].map((address) => createWebSocketTransport({ address, clientId: "c", WebSocket }));
    made.push(
      createWebSocketTransport({
        address: "ws://agent.example/",
        clientId: "c",
        WebSocket,
        allowPlaintextRemote: true,
      }),
    );
    await Promise.all(made.map((t) => t.close()));
  });
});
