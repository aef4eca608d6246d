import type {
  AuditLevel,
  CanonicalEventName,
  FailBehavior,
  HookContext,
  HookEventMap,
  HookEventName,
  HookEventNameInput,
  HookHandlerResult,
  Timers,
  ToolMatcher,
} from "@a3s-lab/hooks-core";
import type { TransportFactory } from "@a3s-lab/hooks-core/wire";

/** What a remote handler gets besides the event. */
export interface RemoteHookContext extends HookContext {
  /** Epoch milliseconds when the agent stops waiting for this answer. */
  readonly deadline: number;
}

/** A hook function that runs in this process, typed by the event it handles. */
export type RemoteHookHandler<E extends HookEventName = HookEventName> = (
  event: HookEventMap[E],
  ctx: RemoteHookContext,
) => HookHandlerResult | PromiseLike<HookHandlerResult>;

/** How the agent runs one remote hook. */
export interface RemoteHookConfig {
  /** Lower runs earlier, across every client and the agent's own hooks. Default 0. */
  priority?: number;
  /** Milliseconds the agent waits for the answer. Default: the agent's (5000). */
  timeoutMs?: number;
  /**
   * The same as `timeoutMs` (milliseconds); give one or the other.
   * @deprecated Use `timeoutMs`.
   */
  timeout?: number;
  /** Fire and forget: the agent does not wait, and the answer cannot block. */
  async?: boolean;
  /** What a failure, a timeout or this client being away contributes. Default: the agent's (`continue`). */
  failBehavior?: FailBehavior;
  /** A name for listings and audit records. */
  name?: string;
}

/** The object form of `registerHook`. */
export interface RemoteHookOptions<E extends HookEventName = HookEventName> {
  /**
   * Matching runs in the agent, so only data: a name matcher (`"Bash|Write"`, `"mcp__*"`, or
   * for non-tool events the model name, source, trigger, …) or the A3S SDK's
   * `{ tool, pathPattern, commandPattern }`.
   */
  matcher?: string | ToolMatcher;
  /** Runs in this process for every firing the agent sends; its answer goes back to the agent. */
  handler: RemoteHookHandler<E>;
  /** Priority, timeout, fail behaviour and the rest, as the agent applies them. */
  config?: RemoteHookConfig;
  /** Your own id for the hook (1 to 100 of `A-Z a-z 0-9 . _ -`); one is made when left out. */
  id?: string;
  /** Unregister the hook when this signal aborts. */
  signal?: AbortSignal;
}

/** A handler, or the object form. */
export type HandlerOrOptions<N extends HookEventNameInput> =
  | RemoteHookHandler<CanonicalEventName<N>>
  | RemoteHookOptions<CanonicalEventName<N>>;

/** One of this client's hooks as the agent reports it. */
export interface RemoteHookInfo {
  /** The hook's id in the agent. */
  id: string;
  /** The event it hooks. */
  event: HookEventName;
  /** Its matcher, as registered; absent when it matches every firing. */
  matcher?: string | ToolMatcher;
  /** With the agent's defaults filled in. */
  config: Required<Omit<RemoteHookConfig, "name" | "timeout">> & {
    /** The name it was registered with, if any. */
    name?: string;
    /** @deprecated The same as `timeoutMs`. */
    timeout: number;
  };
  /** What the agent counted for it since it was registered. */
  counters: {
    /** Firings it ran for. */
    runs: number;
    /** Firings it blocked. */
    blocks: number;
    /** Runs that failed (an error, or a malformed answer). */
    failures: number;
    /** Runs that did not answer in time. */
    timeouts: number;
    /** Answers the agent threw away (late, malformed, unknown event). */
    rejectedResponses: number;
  };
}

/**
 * The client's connection:
 * `idle` (nothing asked yet) → `connecting` → `ready` ⇄ `reconnecting`;
 * `failed` (the agent refused the credentials; no more attempts) and `closed` are final.
 */
export type ConnectionState =
  | "idle"
  | "connecting"
  | "ready"
  | "reconnecting"
  | "failed"
  | "closed";

/** Options of `new A3sClient(options)`; each has a default. */
export interface A3sClientOptions {
  /**
   * The agent's hook server. Default: `A3S_ADDRESS` in Node; in a browser, the host that
   * served the page; else `127.0.0.1:16300`.
   */
  address?: string;
  /** Sent as `authorization: Bearer <token>`. Default: `A3S_TOKEN` in Node. */
  token?: string;
  /** This client's id; keep it to resume after a restart inside the reconnect window. Default: random. */
  clientId?: string;
  /**
   * How to reach the agent. Default: gRPC in Node (export condition `node`), WebSocket in
   * browsers (`browser`); `createWebSocketTransport` picks the WebSocket in Node too.
   */
  transport?: TransportFactory;
  /** Reconnect backoff. Default: 100 ms doubling to 5000 ms, with jitter. */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** How long `ready()` and the calls that wait for it wait for a connection. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /**
   * Connect without encryption to an agent that is not on this machine. The default
   * transports refuse plaintext (gRPC without TLS credentials, `ws://`) to any host but
   * `localhost`, 127.0.0.0/8 and `::1`, since the token and every hook event would cross the
   * network in clear text: give the gRPC transport TLS credentials or use a `wss://` address
   * instead where you can. Default `false`.
   */
  allowPlaintextRemote?: boolean;
  /** Which `audit` events this client emits about its own hooks. Default `off`. */
  auditLevel?: AuditLevel;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
}

/** What the platform entry point (`node`, `browser`) supplies. */
export interface ClientPlatform {
  /** An environment variable, where the platform has them. */
  env(name: string): string | undefined;
  /** The transport used when the options name none. */
  defaultTransport: TransportFactory;
  /**
   * How a user of this platform gives the token, for the error when the agent asks for one and
   * none was given (`"set A3S_TOKEN or pass token"` in Node). Default: `"pass token"`.
   */
  tokenHint?: string;
}

/** A hook registered for a while: `await using hook = client.temporaryHook(...)`. */
export interface TemporaryHook extends AsyncDisposable {
  /** The hook's id. */
  readonly id: string;
  /** Unregister, and wait until the agent has dropped it (when connected). */
  remove(): Promise<void>;
}
