import type { HookError } from "../base/hook-error.js";
import type {
  CreateSessionRequest,
  CreateSessionResponse,
  DestroySessionRequest,
  DestroySessionResponse,
  ExecuteToolRequest,
  ExecuteToolResponse,
  GenerateEventMessage,
  GenerateRequest,
  HookEventMessage,
  HookResponseMessage,
  ListHooksRequest,
  ListHooksResponse,
  RegisterHookRequest,
  RegisterHookResponse,
  UnregisterHookRequest,
  UnregisterHookResponse,
} from "./wire.js";

/** The request/response calls of `hooks.proto`, by method name, in wire (JSON) form. */
export interface UnaryCalls {
  /** Register a remote hook with the agent. */
  RegisterHook: { request: RegisterHookRequest; response: RegisterHookResponse };
  /** Remove a remote hook. */
  UnregisterHook: { request: UnregisterHookRequest; response: UnregisterHookResponse };
  /** List the hooks the agent has (its own and every client's). */
  ListHooks: { request: ListHooksRequest; response: ListHooksResponse };
  /** Start an agent session. */
  CreateSession: { request: CreateSessionRequest; response: CreateSessionResponse };
  /** End an agent session. */
  DestroySession: { request: DestroySessionRequest; response: DestroySessionResponse };
  /** Run a tool in a session, through the agent's hooks. */
  ExecuteTool: { request: ExecuteToolRequest; response: ExecuteToolResponse };
}

/** The name of a request/response call: `RegisterHook`, `ListHooks`, `Generate`, … */
export type UnaryMethod = keyof UnaryCalls;

/** Options of one `transport.call`. */
export interface CallOptions {
  /** Abort the call: it rejects with a `HookError` whose code is `ABORTED`. */
  signal?: AbortSignal;
}

/** What a transport tells its owner about the one hook stream. */
export interface HookStreamHandlers {
  /** A firing to answer, or (with `cancel: true`) the end of the agent's wait for one. */
  onEvent(message: HookEventMessage): void;
  /**
   * The stream ended: `error` is undefined when the client closed it, a `HookError` otherwise
   * (`UNAVAILABLE` when the agent went away, `UNAUTHENTICATED`, …). Called once.
   */
  onClose(error: HookError | undefined): void;
  /**
   * A message from the agent that is not a valid HookEvent (`raw` as decoded). The client
   * answers it with an error when it can tell which firing it was, so the agent does not wait.
   */
  onInvalid?(error: HookError, raw: unknown): void;
}

/** An open hook stream. */
export interface HookStream {
  /** True when the agent still held this client's hooks from an earlier stream. */
  readonly resumed: boolean;
  /** Answer a firing. Never throws; a send on a closed stream is dropped. */
  send(response: HookResponseMessage): void;
  /** Close the stream on purpose (`onClose` gets no error). */
  close(): void;
}

/**
 * The seam between `A3sClient` and a wire: a few methods, an `AbortSignal`, plain data in and
 * out. The gRPC transport (`@a3s-lab/hooks-node`) and the WebSocket transport
 * (`@a3s-lab/hooks-browser`) implement it; a test can implement it in memory.
 *
 * Every method rejects with a `HookError` whose `code` says what went wrong (`UNAUTHENTICATED`,
 * `PERMISSION_DENIED`, `NOT_FOUND`, `LIMIT_EXCEEDED`, `INVALID_CONFIG`, `UNAVAILABLE`, …).
 * A transport need not reconnect on its own: the client opens the hook stream again, with
 * backoff, after `onClose` reports an error; a transport (re)connects lazily on each call.
 * A transport keeps the resume secret the agent gives each accepted hook stream in memory, and
 * presents it on every later call and stream (`x-a3s-client-secret`, `Hello.clientSecret`):
 * without it the agent refuses to act for the client id.
 *
 * @example
 * ```ts
 * const transport = factory({ address: "127.0.0.1:16300", clientId: "me", token });
 * const stream = await transport.openHookStream({
 *   onEvent: (event) => stream.send({ hookId: event.hookId, eventId: event.eventId, action: "continue" }),
 *   onClose: (error) => console.log("stream closed", error?.code),
 * });
 * await transport.call("RegisterHook", { eventType: "PreToolUse", hookId: "h1" });
 * ```
 */
export interface Transport {
  /** One request, one answer. */
  call<M extends UnaryMethod>(
    method: M,
    request: UnaryCalls[M]["request"],
    options?: CallOptions,
  ): Promise<UnaryCalls[M]["response"]>;
  /** AgentService.Generate: progress messages, then one `result`. */
  generate(request: GenerateRequest, options?: CallOptions): AsyncIterable<GenerateEventMessage>;
  /** Open the client's hook stream; resolves once the agent accepted it (the handshake). */
  openHookStream(handlers: HookStreamHandlers, options?: CallOptions): Promise<HookStream>;
  /** Release the connection. Open streams end; later calls reject with `UNAVAILABLE`. */
  close(): Promise<void>;
}

/** Who the transport speaks for, and to whom. */
export interface TransportOptions {
  /** Where the agent's hook server listens, e.g. `127.0.0.1:16300`. */
  address: string;
  /** Sent as `authorization: Bearer <token>`. */
  token?: string;
  /** Sent as `x-a3s-client-id` on every call. */
  clientId: string;
  /**
   * Connect without encryption to an address that is not this machine (not `localhost`,
   * 127.0.0.0/8 or `::1`). The transports refuse that by default, since the token and every
   * hook event would cross the network in clear text; prefer TLS (gRPC credentials, a
   * `wss://` address). Default `false`.
   */
  allowPlaintextRemote?: boolean;
}

/** Makes a transport; `A3sClient` calls it once, with its address, token and client id. */
export type TransportFactory = (options: TransportOptions) => Transport;
