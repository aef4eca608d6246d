import { HookError, type Timers } from "@a3s-lab/hooks-core";
import { checkPlaintextHost, defaultTimers } from "@a3s-lab/hooks-core/internal";
import {
  type CallOptions,
  type GenerateEventMessage,
  type GenerateRequest,
  type HookStream,
  type HookStreamHandlers,
  isWireId,
  PROTOCOL,
  type Transport,
  type TransportOptions,
  type UnaryCalls,
  type UnaryMethod,
} from "@a3s-lab/hooks-core/wire";
import { aborted, raceAbort } from "./abort.js";
import type { WebSocketConstructor } from "./websocket-like.js";
import { webSocketUrl } from "./websocket-url.js";
import { WireSocket, withoutFrameFields } from "./wire-socket.js";

/** {@link createWebSocketTransport}'s options: who speaks to whom, and how. */
export interface WebSocketTransportOptions extends TransportOptions {
  /**
   * The WebSocket class. Default: the global `WebSocket` (every browser; Node 22 and later).
   * In Node 20 pass the `ws` package's: `import WebSocket from "ws"`.
   */
  WebSocket?: WebSocketConstructor;
  /** How long opening the socket and the server's welcome may take. Default 10 000 ms. */
  handshakeTimeoutMs?: number;
  /**
   * A resume secret the agent gave this client id before (see `onClientSecret`), presented in
   * the first `Hello`. A page that keeps its client id across a reload (in `sessionStorage`)
   * passes it, so the reloaded page resumes its own client instead of being refused as another
   * holder of the id. Default: none (a first connection).
   */
  clientSecret?: string;
  /**
   * Called with the resume secret of each `Welcome` (it changes when the agent restarts). Keep
   * it only where the token may be kept: it proves who the client is to the agent.
   */
  onClientSecret?: (secret: string) => void;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
}

/**
 * The WebSocket transport of `A3sClient`: every call of `hooks.proto` as JSON frames on one
 * socket, authenticated by the first frame (the token never goes in the URL). The resume
 * secret of the agent's `Welcome` is kept in memory and presented in every later `Hello`
 * (`clientSecret` and `onClientSecret` carry it across a page reload). It implements
 * core's `Transport` exactly as the gRPC transport does: sockets open lazily, and when one
 * drops the client reopens the hook stream with backoff. It is the default transport of
 * `@a3s-lab/box` in browsers.
 *
 * @example
 * ```ts
 * import { A3sClient } from "@a3s-lab/box";
 * import { createWebSocketTransport } from "@a3s-lab/hooks-browser";
 *
 * const client = new A3sClient({
 *   address: "wss://agent.example.com",
 *   token,
 *   transport: createWebSocketTransport,
 * });
 * ```
 */
export function createWebSocketTransport(options: WebSocketTransportOptions): Transport {
  if (typeof options?.address !== "string" || options.address === "") {
    throw new HookError(
      "INVALID_CONFIG",
      "options.address: expected host:port, like 127.0.0.1:16300",
      { path: ["options", "address"] },
    );
  }
  if (!isWireId(options.clientId)) {
    throw new HookError(
      "INVALID_CONFIG",
      "options.clientId: expected 1 to 100 of A-Z a-z 0-9 . _ -",
      { path: ["options", "clientId"] },
    );
  }
  const WebSocketClass =
    options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof WebSocketClass !== "function") {
    throw new HookError(
      "INVALID_CONFIG",
      "options.WebSocket: this runtime has no global WebSocket; pass one (in Node 20: the ws package's)",
      { path: ["options", "WebSocket"] },
    );
  }
  const url = webSocketUrl(options.address);
  const { protocol, hostname } = new URL(url);
  if (protocol === "ws:") checkPlaintextHost(hostname, options, "use a wss:// address");
  if (
    options.clientSecret !== undefined &&
    (typeof options.clientSecret !== "string" ||
      options.clientSecret === "" ||
      options.clientSecret.length > 256)
  ) {
    throw new HookError(
      "INVALID_CONFIG",
      "options.clientSecret: expected the secret of an earlier Welcome (1 to 256 characters)",
      { path: ["options", "clientSecret"] },
    );
  }
  if (options.onClientSecret !== undefined && typeof options.onClientSecret !== "function") {
    throw new HookError("INVALID_CONFIG", "options.onClientSecret: expected a function", {
      path: ["options", "onClientSecret"],
    });
  }
  const timers = options.timers ?? defaultTimers;
  // The agent's proof of who we are, from the latest Welcome: every later Hello presents it
  // (a restarted agent gives a new one). Kept in memory, and handed to `onClientSecret`.
  let clientSecret: string | undefined = options.clientSecret;
  const hello = () => ({
    clientId: options.clientId,
    protocol: PROTOCOL,
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
  });
  let socket: WireSocket | undefined;
  let stream: { handlers: HookStreamHandlers; on: WireSocket } | undefined;
  let closed = false;

  const gone = () => new HookError("UNAVAILABLE", "the transport is closed");

  /** The open socket, or a new one: sockets open on demand and are shared by every call. */
  const connect = (): WireSocket => {
    if (closed) throw gone();
    if (socket && !socket.done) return socket;
    const next: WireSocket = new WireSocket({
      url,
      WebSocket: WebSocketClass,
      hello: hello(),
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      timers,
      onEvent: (message) => {
        if (stream?.on === next) {
          stream.handlers.onEvent(message);
          return;
        }
        // No hook stream on this socket (it was opened for a call): say so at once, so the
        // agent applies the hook's fail behaviour instead of waiting for its timeout.
        if (!message.cancel) {
          next.send({
            type: "HookResponse",
            hookId: message.hookId,
            eventId: message.eventId,
            action: "continue",
            error: "no hook stream is open on this connection",
          });
        }
      },
      onInvalid: (error, raw) => {
        if (stream?.on === next) stream.handlers.onInvalid?.(error, raw);
      },
      onClose: (error) => {
        if (socket === next) socket = undefined;
        if (stream?.on !== next) return;
        const { handlers } = stream;
        stream = undefined;
        handlers.onClose(error);
      },
    });
    socket = next;
    next.welcomed.then(
      (welcome) => {
        if (!welcome.clientSecret) return;
        clientSecret = welcome.clientSecret;
        options.onClientSecret?.(welcome.clientSecret);
      },
      () => {},
    );
    return next;
  };

  return {
    async call<M extends UnaryMethod>(
      method: M,
      request: UnaryCalls[M]["request"],
      callOptions: CallOptions = {},
    ): Promise<UnaryCalls[M]["response"]> {
      const { signal } = callOptions;
      if (signal?.aborted) throw aborted(signal);
      const on = connect();
      await raceAbort(on.welcomed, signal);
      const expected = `${method}Response`;
      return new Promise((resolve, reject) => {
        on.exchange(
          { ...request, type: `${method}Request` },
          signal,
          (answer) => {
            if (answer.type === expected) resolve(withoutFrameFields(answer) as never);
            else
              reject(
                new HookError(
                  "INVALID_OUTPUT",
                  `the agent answered ${method} with a ${answer.type}, expected ${expected}`,
                ),
              );
            return true;
          },
          reject,
        );
      });
    },

    async *generate(
      request: GenerateRequest,
      callOptions: CallOptions = {},
    ): AsyncGenerator<GenerateEventMessage> {
      const { signal } = callOptions;
      if (signal?.aborted) throw aborted(signal);
      const on = connect();
      await raceAbort(on.welcomed, signal);
      const queue: GenerateEventMessage[] = [];
      let failure: HookError | undefined;
      let finished = false;
      let wake: (() => void) | undefined;
      const id = on.exchange(
        { ...request, type: "GenerateRequest" },
        signal,
        (answer) => {
          if (answer.type !== "GenerateEvent") return false;
          const event = withoutFrameFields(answer) as GenerateEventMessage;
          queue.push(event);
          finished = "result" in event;
          wake?.();
          return finished;
        },
        (error) => {
          failure ??= error;
          wake?.();
        },
      );
      try {
        for (;;) {
          while (queue.length > 0) yield queue.shift()!;
          if (finished) return;
          if (failure) throw failure;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      } finally {
        // The caller stopped reading early: the agent need not go on generating.
        if (!finished && !failure) on.cancel(id);
      }
    },

    async openHookStream(
      handlers: HookStreamHandlers,
      callOptions: CallOptions = {},
    ): Promise<HookStream> {
      const { signal } = callOptions;
      if (signal?.aborted) throw aborted(signal);
      const on = connect();
      let welcome: Awaited<WireSocket["welcomed"]>;
      try {
        welcome = await raceAbort(on.welcomed, signal);
      } catch (error) {
        // The attempt was abandoned: do not leave a half-open socket holding the client's hooks.
        if (signal?.aborted) on.close();
        throw error;
      }
      if (on.done) throw new HookError("UNAVAILABLE", "the connection closed as it opened");
      // One stream per socket: an older one on this socket ends here.
      const older = stream?.on === on ? stream.handlers : undefined;
      stream = { handlers, on };
      older?.onClose(new HookError("ABORTED", "replaced by a newer hook stream"));
      const mine = stream;
      return {
        resumed: welcome.resumed,
        send(response) {
          if (stream === mine) on.send({ ...response, type: "HookResponse" });
        },
        close() {
          if (stream !== mine) return;
          // The socket is the stream: closing it ends the stream; the next call opens another.
          on.close();
        },
      };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const current = socket;
      socket = undefined;
      current?.close();
    },
  };
}
