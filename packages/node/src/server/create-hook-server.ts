import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type HookEngine, HookError, type Timers, type Unsubscribe } from "@a3s-lab/hooks-core";
import { defaultTimers, parseOrThrow } from "@a3s-lab/hooks-core/internal";
import { DEFAULT_HOOK_PORT } from "@a3s-lab/hooks-core/wire";
import { type ConnectionInjector, Server, ServerCredentials } from "@grpc/grpc-js";
import * as z from "zod/mini";
import { grpcAgentService } from "../grpc/grpc-agent-service.js";
import { authInterceptor } from "../grpc/grpc-auth-interceptor.js";
import { grpcHookService } from "../grpc/grpc-hook-service.js";
import { withEncodedHookEvents } from "../grpc/hook-event-encoder.js";
import { loadHooksProto } from "../grpc/hooks-proto.js";
import type { AgentService } from "../hub/agent-service.js";
import { createAuthenticator } from "../hub/authenticator.js";
import { bracketed, ConnectionFront } from "../hub/connection-front.js";
import { defaultMaxConnections, openFileLimit } from "../hub/fd-limit.js";
import { HookHub, type HookHubOptions } from "../hub/hook-hub.js";
import type { HubEventType, HubListener } from "../hub/hub-events.js";
import { rateLimitSchema } from "../hub/rate-limiter.js";
import { WebSocketEndpoint } from "../ws/ws-endpoint.js";
import { createWebSocketHttpServer, type HttpHandler } from "../ws/ws-http-server.js";
import { type WebSocketOptions, webSocketOptionsSchema } from "../ws/ws-options.js";
import { type OriginCheck, originCheck } from "../ws/ws-origin.js";

/**
 * Options of `createHookServer`; every limit has a default. The hub's limits (clients, hooks
 * per client and event, the remote quotas, the registration rate, the reconnect window) are
 * those of {@link HookHubOptions}.
 */
export interface HookServerOptions
  extends Pick<
    HookHubOptions,
    | "engine"
    | "reconnectWindowMs"
    | "maxClients"
    | "maxHooksPerClient"
    | "maxHooksPerEventPerClient"
    | "maxRemoteHooksPerEvent"
    | "maxRemoteHooks"
    | "registrationRate"
  > {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port to bind; 0 picks a free one. Default {@link DEFAULT_HOOK_PORT}. */
  port?: number;
  /** The token every call must present as `authorization: Bearer <token>`. */
  token?: string;
  /** Accept calls without a token. Required (and only allowed) when `token` is not given. */
  insecure?: boolean;
  /** Serve AgentService (sessions, generate, executeTool) with this implementation. */
  agent?: AgentService;
  /** Largest message accepted from a client, and largest event sent to one. Default 4 MiB. */
  maxMessageBytes?: number;
  /**
   * Connections open at once, gRPC, WebSocket and pages together; past it, a new connection
   * is refused (or takes the place of the oldest one that has not authenticated). Default:
   * half the process's open-file limit (`ulimit -n`), leaving the rest to command hooks and
   * tools, at most 10 000; 1000 where the limit cannot be read.
   */
  maxConnections?: number;
  /**
   * Connections open at once that have not authenticated yet (no gRPC call with a valid
   * token, no accepted WebSocket `Hello`); past it, the oldest of them is closed to make room
   * for the new one. Default half of `maxConnections`, at most 1000 (each may hold up to
   * 64 KiB of headers or Hello before it authenticates).
   */
  maxUnauthenticatedConnections?: number;
  /**
   * How long a new connection has to authenticate: a gRPC call with a valid token, or a
   * WebSocket upgrade (whose `Hello` then has `webSocket.authTimeoutMs`). A connection that
   * only fetches pages is closed this long after its last request. Default 5000 ms.
   */
  authTimeoutMs?: number;
  /** gRPC calls at once on one connection (HTTP/2 `MAX_CONCURRENT_STREAMS`). Default 100. */
  maxStreamsPerConnection?: number;
  /**
   * Bytes of firings waiting to be sent to one client. A client that stops reading is
   * disconnected when this is full: its waiting and new firings answer with their hooks'
   * `failBehavior`. Default twice `maxMessageBytes` (8 MiB).
   */
  maxQueuedBytesPerClient?: number;
  /** How long `close()` lets firings in flight finish. Default 5000 ms. */
  drainTimeoutMs?: number;
  /**
   * TLS for non-loopback use (`ServerCredentials.createSsl(...)`). Default: plaintext. With
   * TLS, gRPC has the port to itself; the WebSocket endpoint then needs `webSocket.port`
   * (plaintext: put a TLS proxy in front of it).
   */
  credentials?: ServerCredentials;
  /**
   * The WebSocket endpoint, on the gRPC port (one port: an HTTP/2 preface goes to gRPC,
   * anything else to HTTP/1.1 and the WebSocket upgrade). `false` turns it off. Default on.
   */
  webSocket?: false | WebSocketOptions;
  /**
   * Answers plain HTTP requests on the port, e.g. the page of a browser client (its origin
   * is then allowed to open the WebSocket). Default: 404 for every request.
   */
  httpHandler?: HttpHandler;
  /**
   * The clock and timers the reconnect windows and the rate limits (registrations, WebSocket
   * frames, unmatched gRPC answers) run on; inject fakes in tests.
   */
  timers?: Timers;
}

/** A running hook server. */
export interface HookServer extends AsyncDisposable {
  /** The bound interface. */
  readonly host: string;
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** `host:port`, ready for `A3sClient({ address })` (IPv6 hosts in brackets). */
  readonly address: string;
  /** `ws://host:port/` of the WebSocket endpoint; undefined when it is off. */
  readonly webSocketUrl: string | undefined;
  /** The protocol-agnostic core, for further transport adapters. */
  readonly hub: HookHub;
  /** Client connects, disconnects, reconnect-window expiries and warnings. */
  on<T extends HubEventType | "*">(
    type: T,
    listener: HubListener<T>,
    options?: { signal?: AbortSignal },
  ): Unsubscribe;
  /** Stop accepting calls, drain firings in flight, end every stream, unbind. Idempotent. */
  close(): Promise<void>;
}

const count = z.optional(z.int().check(z.positive()));
const optionsSchema = z.object({
  // Structural, not instanceof: the host's engine may come from the other (ESM/CJS) build.
  engine: z.custom<HookEngine>(
    (e) =>
      typeof e === "object" &&
      e !== null &&
      ["register", "unregister", "list", "fire"].every(
        (m) => typeof (e as unknown as Record<string, unknown>)[m] === "function",
      ),
    "expected a HookEngine",
  ),
  host: z.optional(z.string().check(z.minLength(1))),
  port: z.optional(z.int().check(z.gte(0), z.lte(65_535))),
  token: z.optional(z.string().check(z.minLength(1, "expected a non-empty token"))),
  insecure: z.optional(z.boolean()),
  agent: z.optional(
    z.custom<AgentService>(
      (a) =>
        typeof a === "object" &&
        a !== null &&
        ["createSession", "destroySession", "generate", "executeTool"].every(
          (m) => typeof (a as unknown as Record<string, unknown>)[m] === "function",
        ),
      "expected an object with createSession, destroySession, generate and executeTool",
    ),
  ),
  reconnectWindowMs: z.optional(z.int().check(z.nonnegative(), z.lte(2_147_483_647))),
  maxClients: count,
  maxHooksPerClient: count,
  maxHooksPerEventPerClient: count,
  maxRemoteHooksPerEvent: count,
  maxRemoteHooks: count,
  registrationRate: z.optional(rateLimitSchema),
  maxMessageBytes: z.optional(z.int().check(z.gte(1024))),
  maxQueuedBytesPerClient: z.optional(z.int().check(z.gte(1024))),
  maxConnections: count,
  maxUnauthenticatedConnections: count,
  authTimeoutMs: z.optional(z.int().check(z.positive(), z.lte(600_000))),
  maxStreamsPerConnection: count,
  drainTimeoutMs: z.optional(z.int().check(z.nonnegative())),
  credentials: z.optional(z.custom<ServerCredentials>((c) => c instanceof ServerCredentials)),
  timers: z.optional(z.custom<Timers>((t) => typeof t === "object" && t !== null)),
  webSocket: z.optional(z.union([z.literal(false), webSocketOptionsSchema])),
  httpHandler: z.optional(
    z.custom<HttpHandler>((h) => typeof h === "function", "expected a function"),
  ),
});

/**
 * Start the hook server an agent hosts: HookService (and AgentService when `agent` is given)
 * over gRPC and over WebSocket, both on one port, on 127.0.0.1 unless told otherwise, every
 * call authenticated by token.
 *
 * @example
 * ```ts
 * const engine = new HookEngine();
 * const server = await createHookServer({ engine, token: process.env.A3S_TOKEN, port: 0 });
 * console.log(`hooks on ${server.address}`);
 * // … engine.fire(event) now also reaches remote hooks …
 * await server.close();
 * ```
 */
export async function createHookServer(options: HookServerOptions): Promise<HookServer> {
  const o = parseOrThrow(optionsSchema, options, "INVALID_CONFIG", ["options"]);
  if (o.token === undefined && o.insecure !== true) {
    throw new HookError(
      "INVALID_CONFIG",
      "options.token: a token is required; pass insecure: true to accept calls without one",
      { path: ["options", "token"] },
    );
  }
  if (o.token !== undefined && o.insecure === true) {
    throw new HookError(
      "INVALID_CONFIG",
      "options.insecure: give a token or insecure: true, not both",
      {
        path: ["options", "insecure"],
      },
    );
  }
  const host = o.host ?? "127.0.0.1";
  const maxMessageBytes = o.maxMessageBytes ?? 4 * 1024 * 1024;
  const maxQueuedBytes = o.maxQueuedBytesPerClient ?? 2 * maxMessageBytes;
  const maxConnections = o.maxConnections ?? defaultMaxConnections(openFileLimit());
  const authTimeoutMs = o.authTimeoutMs ?? 5000;
  const timers = options.timers ?? defaultTimers;
  const hub = new HookHub({
    engine: o.engine,
    ...(o.reconnectWindowMs !== undefined ? { reconnectWindowMs: o.reconnectWindowMs } : {}),
    ...(o.maxClients !== undefined ? { maxClients: o.maxClients } : {}),
    ...(o.maxHooksPerClient !== undefined ? { maxHooksPerClient: o.maxHooksPerClient } : {}),
    ...(o.maxHooksPerEventPerClient !== undefined
      ? { maxHooksPerEventPerClient: o.maxHooksPerEventPerClient }
      : {}),
    ...(o.maxRemoteHooksPerEvent !== undefined
      ? { maxRemoteHooksPerEvent: o.maxRemoteHooksPerEvent }
      : {}),
    ...(o.maxRemoteHooks !== undefined ? { maxRemoteHooks: o.maxRemoteHooks } : {}),
    ...(o.registrationRate ? { registrationRate: o.registrationRate } : {}),
    timers,
  });
  const authenticate = createAuthenticator(o.token);
  const closing = new AbortController();
  const proto = loadHooksProto();
  const secure = options.credentials?._isSecure() ?? false;
  let injector: ConnectionInjector | undefined;
  const ws = o.webSocket === false ? undefined : (o.webSocket ?? {});
  let endpoint: WebSocketEndpoint | undefined;
  const web = createWebSocketHttpServer(() => endpoint, options.httpHandler);
  // Every port the server listens on itself shares one set of connection limits.
  const front = new ConnectionFront({
    // A plaintext HTTP/2 preface on the WebSocket port of a TLS server is not let in.
    http2: (socket) => (secure ? socket.destroy() : injector!.injectConnection(socket)),
    http1: (socket) => (ws ? web.emit("connection", socket) : socket.destroy()),
    authTimeoutMs,
    maxConnections,
    ...(o.maxUnauthenticatedConnections !== undefined
      ? { maxUnauthenticatedConnections: o.maxUnauthenticatedConnections }
      : {}),
  });
  const server = new Server({
    "grpc.max_receive_message_length": maxMessageBytes,
    "grpc.max_send_message_length": -1,
    "grpc.max_concurrent_streams": o.maxStreamsPerConnection ?? 100,
    // Notice a silently vanished client (no FIN, no RST) within ~20 s, not hours.
    "grpc.keepalive_time_ms": 10_000,
    "grpc.keepalive_timeout_ms": 10_000,
    interceptors: [authInterceptor(authenticate, (peer) => front.authenticatedPeer(peer))],
  });
  server.addService(
    withEncodedHookEvents(proto.HookService),
    grpcHookService(
      hub,
      authenticate,
      {
        maxMessageBytes,
        maxQueuedBytes,
        dropConnection: (peer) => front.dropPeer(peer),
      },
      timers,
    ),
  );
  if (o.agent)
    server.addService(proto.AgentService, grpcAgentService(o.agent, authenticate, closing.signal));

  const bindHost = bracketed(host);
  // Checked now, so a bad allow-list fails before anything listens.
  if (ws) originCheck(ws.allowedOrigins, host, []);
  let allowed: OriginCheck = () => false;
  // A page being served is not a stranger idling: its connection's deadline waits for the answer.
  web.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as Socket;
    response.once("close", front.busy(socket));
  });
  // With TLS, every connection of the main port is gRPC's: its TLS server takes it unread.
  injector = server.createConnectionInjector(
    secure ? options.credentials! : ServerCredentials.createInsecure(),
  );
  const grpcSocket = (socket: Socket) => injector.injectConnection(socket);
  const stopListening = (graceMs?: number) => front.close(graceMs);
  let port: number;
  let webPort: number | undefined;
  try {
    port = await front.listen(host, o.port ?? DEFAULT_HOOK_PORT, secure ? grpcSocket : undefined);
    webPort = secure || !ws ? undefined : port;
    if (ws?.port !== undefined) webPort = await front.listen(host, ws.port);
  } catch (error) {
    await stopListening();
    server.forceShutdown();
    throw error;
  }
  if (ws && webPort !== undefined) {
    allowed = originCheck(
      ws.allowedOrigins,
      host,
      [...new Set([port, webPort])].filter((p) => !secure || p === webPort),
    );
    endpoint = new WebSocketEndpoint({
      hub,
      authenticate,
      agent: o.agent,
      closing: closing.signal,
      maxMessageBytes,
      maxQueuedBytes,
      authTimeoutMs: ws.authTimeoutMs ?? authTimeoutMs,
      maxHelloBytes: ws.maxHelloBytes ?? 64 * 1024,
      upgraded: (socket) => front.busy(socket as Socket),
      authenticated: (socket) => front.authenticated(socket as Socket),
      frameRate: ws.frameRate ?? { burst: 1000, perSecond: 500 },
      timers,
      originAllowed: (request) => allowed(request),
    });
  }

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      closing.abort();
      await hub.close({ drainMs: o.drainTimeoutMs ?? 5000 });
      await endpoint?.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      // What is left are idle HTTP/1.1 keep-alive sockets (the page's): nothing to wait for.
      await stopListening(0);
    })());

  return {
    host,
    port,
    address: `${bindHost}:${port}`,
    webSocketUrl: webPort === undefined ? undefined : `ws://${bindHost}:${webPort}/`,
    hub,
    on: (type, listener, opts) => hub.on(type, listener, opts),
    close,
    [Symbol.asyncDispose]: close,
  };
}
