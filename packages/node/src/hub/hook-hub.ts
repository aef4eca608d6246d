import { randomBytes } from "node:crypto";
import {
  type HookEngine,
  HookError,
  type HookEventName,
  resolveEventName,
  type SubscribeOptions,
  type Timers,
  type Unsubscribe,
} from "@a3s-lab/hooks-core";
import { defaultTimers, randomId, unknownEventMessage } from "@a3s-lab/hooks-core/internal";
import {
  answersChecked,
  type ListHooksResponse,
  parseWireMessage,
  type RegisterHookResponse,
  type UnregisterHookResponse,
  type WireMessageType,
} from "@a3s-lab/hooks-core/wire";
import { linearRegex } from "../support/linear-regex.js";
import { sameSecret } from "./authenticator.js";
import { HubEmitter, type HubEvent, type HubEventType, type HubListener } from "./hub-events.js";
import { type RateLimit, RateLimiter } from "./rate-limiter.js";
import { type HookEventSink, RemoteClient } from "./remote-client.js";
import {
  type RemoteHook,
  sameDefinition,
  toEngineMatcher,
  toHookInfoMessage,
} from "./remote-hook.js";

/** Options of `new HookHub(options)`; every limit has a default. */
export interface HookHubOptions {
  /** The host's engine: remote hooks become ordinary registrations on it. */
  engine: HookEngine;
  /** How long a disconnected client's hooks stay registered. Default 30 000 ms. */
  reconnectWindowMs?: number;
  /**
   * Clients known at once (connected or inside their reconnect window). Default 100. Only an
   * authenticated, open hook stream makes a client record, and a client that leaves without
   * hooks is forgotten at once, so calls naming made-up ids take no slot.
   */
  maxClients?: number;
  /** Hooks one client may hold. Default 25, half the engine's default total of 50. */
  maxHooksPerClient?: number;
  /**
   * Hooks one client may hold for one event. Default 5, half the engine's default of 10 per
   * event, so one client cannot take every slot of an event from the others.
   */
  maxHooksPerEventPerClient?: number;
  /**
   * Hooks all remote clients together may hold for one event. Default 8: with the engine's
   * default of 10 per event, 2 slots stay free for the host's own hooks whatever clients do.
   */
  maxRemoteHooksPerEvent?: number;
  /**
   * Hooks all remote clients together may hold. Default 40: with the engine's default total of
   * 50, 10 stay free for the host's own hooks.
   */
  maxRemoteHooks?: number;
  /** Registrations per client: a burst, then a steady rate. Default 50 at once, 10 per second. */
  registrationRate?: RateLimit;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
}

/**
 * Who a hook call comes from: the client id its credentials carried, and the resume secret it
 * presented (`x-a3s-client-secret`, or `Hello.clientSecret`), if any.
 */
export interface ClientCredentials {
  /** The client id the caller's credentials carried. */
  readonly clientId: string;
  /** The resume secret it presented; needed to take over a known client id. */
  readonly clientSecret?: string | undefined;
}

/** An open hook stream, as the adapter that owns it sees the hub. */
export interface AttachedStream {
  /** The client the stream belongs to. */
  readonly clientId: string;
  /** True when the hub still held this client's hooks (it reconnected inside its window). */
  readonly resumed: boolean;
  /**
   * The client's resume secret: the adapter sends it back in the stream's handshake, and the
   * client presents it on every later call for its id.
   */
  readonly clientSecret: string;
  /**
   * A HookResponse the client sent, decoded but unchecked; or the error decoding it hit.
   * True when it answered a firing that waited for it; false for a late, unknown or unreadable
   * one (already reported), which a transport may count against the client.
   */
  receive(message: unknown, decodeError?: HookError): boolean;
  /**
   * The stream ended (the client closed it, the connection dropped, the adapter gave up). With
   * `left`, the client said it is going away for good (a browser page that unloads closes its
   * WebSocket with 1001): its hooks are removed at once instead of held for the reconnect
   * window, as if it had unregistered them.
   */
  detach(reason: string, options?: { left?: boolean }): void;
}

/** A client as {@link HookHub.clients} shows it. */
export interface RemoteClientInfo {
  /** The client's id. */
  clientId: string;
  /** True while its hook stream is open; false inside its reconnect window. */
  connected: boolean;
  /** How many hooks it has registered. */
  hooks: number;
  /** Firings waiting for its answer right now. */
  pendingFirings: number;
}

/**
 * The protocol-agnostic heart of the hook server: remote clients, their hooks (registered on
 * the host's `HookEngine` with `source: "remote:<clientId>"`), the firings they owe answers to,
 * reconnect windows and limits. Transport adapters (gRPC, WebSocket) authenticate a call, then
 * hand the hub plain wire messages; every message is checked here, so each adapter gets the
 * same validation, limits and errors.
 *
 * A client id names a client; its resume secret proves who it is. The first hook stream for an
 * id makes the client's record and its secret; every later call for that id (a hook call, a
 * stream that resumes or replaces) must present the secret, so knowing an id is not enough to
 * act for it.
 *
 * @example
 * ```ts
 * const hub = new HookHub({ engine });
 * const stream = hub.attach({ clientId: "client-1" }, { send: (m) => socket.send(JSON.stringify(m)), close: () => socket.close() });
 * const caller = { clientId: "client-1", clientSecret: stream.clientSecret };
 * const { hookId } = hub.register(caller, { eventType: "PreToolUse", matcher: { tool: "Bash" } });
 * socket.on("message", (data) => stream.receive(JSON.parse(String(data))));
 * socket.on("close", () => stream.detach("socket closed"));
 * ```
 */
export class HookHub {
  /** The host's engine the remote hooks are registered on. */
  readonly engine: HookEngine;
  readonly #clients = new Map<string, RemoteClient>();
  readonly #events = new HubEmitter();
  readonly #timers: Timers;
  readonly #window: number;
  readonly #maxClients: number;
  readonly #maxPerClient: number;
  readonly #maxPerEvent: number;
  readonly #maxRemotePerEvent: number;
  readonly #maxRemote: number;
  readonly #rate: RateLimit;
  #closing = false;

  constructor(options: HookHubOptions) {
    this.engine = options.engine;
    this.#timers = options.timers ?? defaultTimers;
    this.#window = options.reconnectWindowMs ?? 30_000;
    this.#maxClients = options.maxClients ?? 100;
    this.#maxPerClient = options.maxHooksPerClient ?? 25;
    this.#maxPerEvent = options.maxHooksPerEventPerClient ?? 5;
    this.#maxRemotePerEvent = options.maxRemoteHooksPerEvent ?? 8;
    this.#maxRemote = options.maxRemoteHooks ?? 40;
    this.#rate = options.registrationRate ?? { burst: 50, perSecond: 10 };
  }

  /**
   * Subscribe to client connects, disconnects, expiries and warnings (`"*"` for all). Returns
   * the way to stop; an already-aborted `options.signal` subscribes nothing.
   */
  on<T extends HubEventType | "*">(
    type: T,
    listener: HubListener<T>,
    options?: SubscribeOptions,
  ): Unsubscribe {
    return this.#events.on(type, listener, options);
  }

  /** The clients the hub knows now. */
  clients(): RemoteClientInfo[] {
    return [...this.#clients.values()].map((c) => ({
      clientId: c.id,
      connected: c.stream !== undefined,
      hooks: c.hooks.size,
      pendingFirings: c.pendingCount,
    }));
  }

  /** RegisterHook. Idempotent for the same client, hook id and definition. */
  register(caller: ClientCredentials, request: unknown): RegisterHookResponse {
    const client = this.#authorized(caller);
    const req = this.#check("RegisterHookRequest", request);
    const wait = client.limiter.take();
    if (wait > 0) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `registration rate limit: at most ${this.#rate.burst} registrations at once and ${this.#rate.perSecond} per second per client; try again in ${wait} ms`,
        { details: { retryAfterMs: wait } },
      );
    }
    const event = resolveEventName(req.eventType);
    if (!event) {
      throw new HookError(
        "UNKNOWN_EVENT",
        `RegisterHookRequest.eventType: ${unknownEventMessage(req.eventType)}`,
        { path: ["RegisterHookRequest", "eventType"] },
      );
    }
    const hookId = req.hookId || randomId();
    const existing = client.hooks.get(hookId);
    if (existing) {
      if (existing.event === event && sameDefinition(existing, req)) return { hookId };
      throw new HookError(
        "INVALID_CONFIG",
        `RegisterHookRequest.hookId: ${hookId} is already registered with another definition; unregister it first`,
        { path: ["RegisterHookRequest", "hookId"] },
      );
    }
    this.#checkClientLimits(client, event);
    const config = req.config ?? {};
    // The engine applies the request's timeout or its own default: known here without asking it.
    const hook: RemoteHook = {
      hookId,
      // Engine ids and names reach block reasons that any caller of the agent may read: they
      // carry no client id, which is half of what it takes to act for a client.
      engineId: `remote-${randomId()}`,
      event,
      matcher: req.matcher,
      config,
      timeout: config.timeoutMs || this.engine.defaultTimeoutMs,
      rejectedResponses: 0,
    };
    this.engine.register({
      event,
      id: hook.engineId,
      source: `remote:${client.id}`,
      matcher: toEngineMatcher(req.matcher) as never,
      // A remote client's patterns must not be able to stall the agent's event loop.
      regex: linearRegex,
      // The client's answers are checked once, on arrival (RemoteClient.receive).
      handler: answersChecked((e, ctx) => client.dispatch(hook, e, ctx)),
      ...(config.priority ? { priority: config.priority } : {}),
      ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
      ...(config.failBehavior ? { failBehavior: config.failBehavior } : {}),
      ...(config.async ? { async: true } : {}),
      name: config.name || hookId,
    });
    client.hooks.set(hookId, hook);
    return { hookId };
  }

  /**
   * UnregisterHook: the caller's own hooks only. `removed: false` alike for a hook that does
   * not exist and for one that is not the caller's, so the answer tells nothing about others.
   */
  unregister(caller: ClientCredentials, request: unknown): UnregisterHookResponse {
    const client = this.#authorized(caller);
    const { hookId } = this.#check("UnregisterHookRequest", request);
    const hook = client.hooks.get(hookId);
    if (!hook) return { removed: false };
    client.hooks.delete(hookId);
    this.engine.unregister(hook.engineId, "unregistered by its client");
    return { removed: true };
  }

  /** ListHooks: the caller's hooks with their counters, never another client's. */
  list(caller: ClientCredentials, request: unknown): ListHooksResponse {
    const client = this.#authorized(caller);
    const req = this.#check("ListHooksRequest", request);
    let event: HookEventName | undefined;
    if (req.eventType) {
      event = resolveEventName(req.eventType);
      if (!event) {
        throw new HookError(
          "UNKNOWN_EVENT",
          `ListHooksRequest.eventType: ${unknownEventMessage(req.eventType)}`,
          { path: ["ListHooksRequest", "eventType"] },
        );
      }
    }
    const info = this.#engineInfo(client.id);
    const hooks = [...client.hooks.values()]
      .filter((h) => event === undefined || h.event === event)
      .map((h) => toHookInfoMessage(h, info.get(h.engineId)));
    return { hooks };
  }

  /**
   * Open a client's hook stream. For a client id the hub holds no record of, this makes the
   * record and a fresh resume secret (whatever secret the caller presented: one from before a
   * restart is simply stale). For a known id the caller must present that client's secret, or
   * the call fails with `UNAUTHENTICATED` and nothing changes. A newer stream of the same client
   * replaces the older one (a reconnect the server has not noticed yet); firings sent on the
   * old one may be answered on the new one.
   */
  attach(caller: ClientCredentials, sink: HookEventSink): AttachedStream {
    const { clientId } = caller;
    const known = this.#known(clientId);
    const resumed = known !== undefined;
    if (known) this.#verify(known, caller);
    const client = known ?? this.#create(clientId);
    const previous = client.stream;
    client.stream = sink;
    this.#timers.clearTimeout(client.expiry);
    client.expiry = undefined;
    previous?.close(new HookError("ABORTED", "replaced by a newer stream of the same client"));
    this.#emit({ type: "client_connected", clientId, resumed });
    return {
      clientId,
      resumed,
      clientSecret: client.secret,
      receive: (message, decodeError) => client.receive(message, decodeError),
      detach: (reason, options) => {
        if (client.stream !== sink) return;
        client.stream = undefined;
        const failedFirings = client.failPending(
          new HookError("UNAVAILABLE", `the client disconnected (${reason})`),
        );
        this.#emit({ type: "client_disconnected", clientId, reason, failedFirings });
        if (this.#clients.get(clientId) !== client) return;
        // Gone for good, or nothing to resume: free the slot now rather than hold it for the
        // whole window.
        if (options?.left || client.hooks.size === 0) this.#forget(client, "its client left");
        else this.#startExpiry(client);
      },
    };
  }

  /**
   * Stop: refuse new work, take every remote hook off the engine (so nothing new is sent),
   * give firings in flight up to `drainMs` to be answered, then fail the rest and end every
   * stream.
   */
  async close(options: { drainMs?: number } = {}): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const clients = [...this.#clients.values()];
    for (const client of clients) {
      this.#timers.clearTimeout(client.expiry);
      for (const hook of client.hooks.values())
        this.engine.unregister(hook.engineId, "hook server closed");
      client.hooks.clear();
    }
    let timer: unknown;
    await Promise.race([
      Promise.all(clients.map((c) => c.whenIdle())),
      new Promise<void>((resolve) => {
        timer = this.#timers.setTimeout(resolve, options.drainMs ?? 5000);
      }),
    ]);
    this.#timers.clearTimeout(timer);
    const closed = new HookError("UNAVAILABLE", "the hook server is closing");
    for (const client of clients) {
      client.failPending(closed);
      const stream = client.stream;
      client.stream = undefined;
      stream?.close(closed);
    }
    this.#clients.clear();
  }

  #check<K extends WireMessageType>(type: K, value: unknown) {
    if (this.#closing) throw new HookError("UNAVAILABLE", "the hook server is closing");
    const checked = parseWireMessage(type, value);
    if (!checked.success) {
      const e = checked.error;
      throw new HookError("INVALID_CONFIG", e.message, { path: e.path, cause: e });
    }
    return checked.data;
  }

  #known(clientId: string): RemoteClient | undefined {
    if (this.#closing) throw new HookError("UNAVAILABLE", "the hook server is closing");
    return this.#clients.get(clientId);
  }

  /**
   * The caller's client record, once it proved it is that client. A hook call never makes a
   * record (nor a limiter, nor an expiry timer): only an open hook stream does.
   */
  #authorized(caller: ClientCredentials): RemoteClient {
    const client = this.#known(caller.clientId);
    if (!client) {
      throw new HookError(
        "FAILED_PRECONDITION",
        "x-a3s-client-id: this server holds no hook stream for the client id; open the HookStream first",
        { path: ["x-a3s-client-id"] },
      );
    }
    this.#verify(client, caller);
    return client;
  }

  #verify(client: RemoteClient, caller: ClientCredentials): void {
    if (caller.clientSecret === undefined || caller.clientSecret === "") {
      throw new HookError(
        "UNAUTHENTICATED",
        "x-a3s-client-secret: this client id is in use; present the secret its HookStream was given",
        { path: ["x-a3s-client-secret"] },
      );
    }
    if (!sameSecret(caller.clientSecret, client.secret)) {
      throw new HookError(
        "UNAUTHENTICATED",
        "x-a3s-client-secret: not the secret of this client id",
        { path: ["x-a3s-client-secret"] },
      );
    }
  }

  #create(clientId: string): RemoteClient {
    if (this.#clients.size >= this.#maxClients) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxClients: at most ${this.#maxClients} clients may be connected or reconnecting at once`,
        { details: { limit: this.#maxClients } },
      );
    }
    const secret = randomBytes(32).toString("base64url");
    const client = new RemoteClient(
      clientId,
      secret,
      new RateLimiter(this.#rate, this.#timers),
      (message, f) => {
        this.#emit({ type: "warning", clientId, message, ...f });
        // The engine's audit stream may be shown to a model or other clients: the hub's own
        // warning event above, for the host, is the one that names the client.
        this.engine.warn(`remote client: ${message}`, {
          ...(f?.hookId !== undefined ? { hookId: f.hookId } : {}),
          ...(f?.eventId !== undefined ? { eventId: f.eventId } : {}),
        });
      },
    );
    this.#clients.set(clientId, client);
    return client;
  }

  /** Drop a client that has no stream: its record, and its hooks from the engine. */
  #forget(client: RemoteClient, reason: string): void {
    this.#timers.clearTimeout(client.expiry);
    this.#clients.delete(client.id);
    for (const hook of client.hooks.values()) this.engine.unregister(hook.engineId, reason);
    this.#emit({ type: "client_expired", clientId: client.id, removedHooks: client.hooks.size });
    client.hooks.clear();
  }

  #startExpiry(client: RemoteClient): void {
    this.#timers.clearTimeout(client.expiry);
    client.expiry = this.#timers.setTimeout(() => {
      if (client.stream || this.#clients.get(client.id) !== client) return;
      this.#forget(client, `its client did not reconnect within ${this.#window} ms`);
    }, this.#window);
    // A reconnect window must not keep a host process alive on its own.
    (client.expiry as { unref?: () => void } | undefined)?.unref?.();
  }

  #checkClientLimits(client: RemoteClient, event: HookEventName): void {
    if (client.hooks.size >= this.#maxPerClient) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxHooksPerClient: a client may register at most ${this.#maxPerClient} hooks`,
        { details: { limit: this.#maxPerClient } },
      );
    }
    let forEvent = 0;
    for (const h of client.hooks.values()) if (h.event === event) forEvent++;
    if (forEvent >= this.#maxPerEvent) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxHooksPerEventPerClient: a client may register at most ${this.#maxPerEvent} hooks for ${event}`,
        { details: { limit: this.#maxPerEvent, event } },
      );
    }
    let remote = 0;
    let remoteForEvent = 0;
    for (const c of this.#clients.values()) {
      remote += c.hooks.size;
      for (const h of c.hooks.values()) if (h.event === event) remoteForEvent++;
    }
    if (remoteForEvent >= this.#maxRemotePerEvent) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxRemoteHooksPerEvent: remote clients together may register at most ${this.#maxRemotePerEvent} hooks for ${event}; the rest are kept for the host's own hooks`,
        { details: { limit: this.#maxRemotePerEvent, event } },
      );
    }
    if (remote >= this.#maxRemote) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxRemoteHooks: remote clients together may register at most ${this.#maxRemote} hooks; the rest are kept for the host's own hooks`,
        { details: { limit: this.#maxRemote } },
      );
    }
  }

  #engineInfo(clientId: string) {
    return new Map(this.engine.list({ source: `remote:${clientId}` }).map((h) => [h.id, h]));
  }

  #emit(
    event: HubEvent extends infer E ? (E extends HubEvent ? Omit<E, "time"> : never) : never,
  ): void {
    this.#events.report({ ...event, time: Date.now() } as HubEvent);
  }
}
