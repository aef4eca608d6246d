import {
  defaultTimers,
  type HookEngine,
  HookError,
  type HookEventName,
  type ListHooksResponse,
  parseWireMessage,
  type RegisterHookResponse,
  randomId,
  resolveEventName,
  type Timers,
  type UnregisterHookResponse,
  type Unsubscribe,
  type WireMessageType,
} from "@a3s-lab/hooks-core";
import { linearRegex } from "../linear-regex.js";
import { linearRegex } from "../linear-regex.js";
import { HubEmitter, type HubEvent, type HubEventType, type HubListener } from "./hub-events.js";
import { type RateLimit, RateLimiter } from "./rate-limiter.js";
import { type HookEventSink, RemoteClient } from "./remote-client.js";
import {
  type RemoteHook,
  sameDefinition,
  toEngineMatcher,
  toHookInfoMessage,
} from "./remote-hook.js";

export interface HookHubOptions {
  /** The host's engine: remote hooks become ordinary registrations on it. */
  engine: HookEngine;
  /** How long a disconnected client's hooks stay registered. Default 30 000 ms. */
  reconnectWindowMs?: number;
  /** Clients known at once (connected or inside their reconnect window). Default 100. */
  maxClients?: number;
  /** Hooks one client may hold. Default 50 (seed 000). The engine's own total applies too. */
  maxHooksPerClient?: number;
  /** Hooks one client may hold for one event. Default 10 (seed 000). */
  maxHooksPerEventPerClient?: number;
  /** Registrations per client: a burst, then a steady rate. Default 50 at once, 10 per second. */
  registrationRate?: RateLimit;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
}

/** An open hook stream, as the adapter that owns it sees the hub. */
export interface AttachedStream {
  readonly clientId: string;
  /** True when the hub still held this client's hooks (it reconnected inside its window). */
  readonly resumed: boolean;
  /**
   * A HookResponse the client sent, decoded but unchecked; or the error decoding it hit.
   * True when it answered a firing that waited for it; false for a late, unknown or unreadable
   * one (already reported), which a transport may count against the client.
   */
  receive(message: unknown, decodeError?: HookError): boolean;
  /** The stream ended (the client closed it, the connection dropped, the adapter gave up). */
  detach(reason: string): void;
}

/** A client as {@link HookHub.clients} shows it. */
export interface RemoteClientInfo {
  clientId: string;
  connected: boolean;
  hooks: number;
  pendingFirings: number;
}

/**
 * The protocol-agnostic heart of the hook server: remote clients, their hooks (registered on
 * the host's `HookEngine` with `source: "remote:<clientId>"`), the firings they owe answers to,
 * reconnect windows and limits. Transport adapters (gRPC, WebSocket) authenticate a call, then
 * hand the hub plain wire messages; every message is checked here, so each adapter gets the
 * same validation, limits and errors.
 *
 * @example
 * ```ts
 * const hub = new HookHub({ engine });
 * const { hookId } = hub.register("client-1", { eventType: "PreToolUse", matcher: { tool: "Bash" } });
 * const stream = hub.attach("client-1", { send: (m) => socket.send(JSON.stringify(m)), close: () => socket.close() });
 * socket.on("message", (data) => stream.receive(JSON.parse(String(data))));
 * socket.on("close", () => stream.detach("socket closed"));
 * ```
 */
export class HookHub {
  readonly engine: HookEngine;
  readonly #clients = new Map<string, RemoteClient>();
  readonly #events = new HubEmitter();
  readonly #timers: Timers;
  readonly #window: number;
  readonly #maxClients: number;
  readonly #maxPerClient: number;
  readonly #maxPerEvent: number;
  readonly #rate: RateLimit;
  #closing = false;

  constructor(options: HookHubOptions) {
    this.engine = options.engine;
    this.#timers = options.timers ?? defaultTimers;
    this.#window = options.reconnectWindowMs ?? 30_000;
    this.#maxClients = options.maxClients ?? 100;
    this.#maxPerClient = options.maxHooksPerClient ?? 50;
    this.#maxPerEvent = options.maxHooksPerEventPerClient ?? 10;
    this.#rate = options.registrationRate ?? { burst: 50, perSecond: 10 };
  }

  /** Subscribe to client connects, disconnects, expiries and warnings. */
  on<T extends HubEventType | "*">(
    type: T,
    listener: HubListener<T>,
    options?: { signal?: AbortSignal },
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
  register(clientId: string, request: unknown): RegisterHookResponse {
    const req = this.#check("RegisterHookRequest", request);
    const client = this.#client(clientId);
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
        `RegisterHookRequest.eventType: unknown event name ${JSON.stringify(req.eventType)}`,
        { path: ["RegisterHookRequest", "eventType"] },
      );
    }
    const hookId = req.hookId || randomId();
    const existing = client.hooks.get(hookId);
    if (existing) {
      if (existing.event === event && sameDefinition(existing, req)) return { hookId };
      throw new HookError(
        "INVALID_REGISTRATION",
        `RegisterHookRequest.hookId: ${hookId} is already registered with another definition; unregister it first`,
        { path: ["RegisterHookRequest", "hookId"] },
      );
    }
    this.#checkClientLimits(client, event);
    const config = req.config ?? {};
    const hook: RemoteHook = {
      hookId,
      engineId: `${client.id}/${hookId}`,
      event,
      matcher: req.matcher,
      config,
      timeout: 0,
      rejectedResponses: 0,
    };
    this.engine.register({
      event,
      id: hook.engineId,
      source: `remote:${client.id}`,
      matcher: toEngineMatcher(req.matcher) as never,
      // A remote client's patterns must not be able to stall the agent's event loop.
      regex: linearRegex,
      // A remote client's patterns must not be able to stall the agent's event loop.
      regex: linearRegex,
      handler: (e, ctx) => client.dispatch(hook, e, ctx),
      ...(config.priority ? { priority: config.priority } : {}),
      ...(config.timeoutMs ? { timeout: config.timeoutMs } : {}),
      ...(config.failBehavior ? { failBehavior: config.failBehavior } : {}),
      ...(config.async ? { async: true } : {}),
      ...(config.name ? { name: config.name } : {}),
    });
    hook.timeout = this.#engineInfo(client.id).get(hook.engineId)?.timeout ?? 5000;
    client.hooks.set(hookId, hook);
    return { hookId };
  }

  /** UnregisterHook: the caller's own hooks only. */
  unregister(clientId: string, request: unknown): UnregisterHookResponse {
    const { hookId } = this.#check("UnregisterHookRequest", request);
    const client = this.#existing(clientId);
    const hook = client?.hooks.get(hookId);
    if (client && hook) {
      client.hooks.delete(hookId);
      this.engine.unregister(hook.engineId, `unregistered by client ${client.id}`);
      return { removed: true };
    }
    const foreign =
      [...this.#clients.values()].some((c) => c.hooks.has(hookId)) ||
      this.engine.list().some((h) => h.id === hookId);
    if (foreign) {
      throw new HookError(
        "PERMISSION_DENIED",
        `UnregisterHookRequest.hookId: hook ${hookId} is not one of client ${clientId}'s hooks`,
        { path: ["UnregisterHookRequest", "hookId"] },
      );
    }
    throw new HookError("NOT_FOUND", `UnregisterHookRequest.hookId: no hook ${hookId}`, {
      path: ["UnregisterHookRequest", "hookId"],
    });
  }

  /** ListHooks: the caller's hooks with their counters, never another client's. */
  list(clientId: string, request: unknown): ListHooksResponse {
    const req = this.#check("ListHooksRequest", request);
    let event: HookEventName | undefined;
    if (req.eventType) {
      event = resolveEventName(req.eventType);
      if (!event) {
        throw new HookError(
          "UNKNOWN_EVENT",
          `ListHooksRequest.eventType: unknown event name ${JSON.stringify(req.eventType)}`,
          { path: ["ListHooksRequest", "eventType"] },
        );
      }
    }
    const client = this.#existing(clientId);
    if (!client) return { hooks: [] };
    const info = this.#engineInfo(client.id);
    const hooks = [...client.hooks.values()]
      .filter((h) => event === undefined || h.event === event)
      .map((h) => toHookInfoMessage(h, info.get(h.engineId)));
    return { hooks };
  }

  /**
   * Open a client's hook stream. A newer stream of the same client replaces the older one
   * (a reconnect the server has not noticed yet); firings sent on the old one may be answered
   * on the new one.
   */
  attach(clientId: string, sink: HookEventSink): AttachedStream {
    const resumed = this.#clients.has(clientId);
    const client = this.#client(clientId);
    const previous = client.stream;
    client.stream = sink;
    this.#timers.clearTimeout(client.expiry);
    client.expiry = undefined;
    previous?.close(new HookError("ABORTED", "replaced by a newer stream of the same client"));
    this.#emit({ type: "client_connected", clientId, resumed });
    return {
      clientId,
      resumed,
      receive: (message, decodeError) => client.receive(message, decodeError),
      detach: (reason) => {
        if (client.stream !== sink) return;
        client.stream = undefined;
        const failedFirings = client.failPending(
          new HookError("UNAVAILABLE", `client ${clientId} disconnected (${reason})`),
        );
        this.#emit({ type: "client_disconnected", clientId, reason, failedFirings });
        if (this.#clients.get(clientId) === client) this.#startExpiry(client);
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
      throw new HookError("INVALID_REGISTRATION", e.message, { path: e.path, cause: e });
    }
    return checked.data;
  }

  /**
   * A client the hub already knows, or undefined: for calls that only read or remove, which
   * must not make a record (and a limiter and an expiry timer) for any id a caller names.
   */
  #existing(clientId: string): RemoteClient | undefined {
    if (this.#closing) throw new HookError("UNAVAILABLE", "the hook server is closing");
    return this.#clients.get(clientId);
  }

  #client(clientId: string): RemoteClient {
    if (this.#closing) throw new HookError("UNAVAILABLE", "the hook server is closing");
    let client = this.#clients.get(clientId);
    if (client) return client;
    if (this.#clients.size >= this.#maxClients) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxClients: at most ${this.#maxClients} clients may be connected or reconnecting at once`,
        { details: { limit: this.#maxClients } },
      );
    }
    client = new RemoteClient(clientId, new RateLimiter(this.#rate, this.#timers), (message, f) => {
      this.#emit({ type: "warning", clientId, message, ...f });
      // The engine's audit stream is where hosts look; say which client it was about.
      this.engine.warn(`remote client ${clientId}: ${message}`, {
        ...(f?.hookId !== undefined ? { hookId: f.hookId } : {}),
        ...(f?.eventId !== undefined ? { eventId: f.eventId } : {}),
      });
    });
    this.#clients.set(clientId, client);
    // A client that registers but never opens its stream is treated like one that left.
    this.#startExpiry(client);
    return client;
  }

  #startExpiry(client: RemoteClient): void {
    this.#timers.clearTimeout(client.expiry);
    client.expiry = this.#timers.setTimeout(() => {
      if (client.stream || this.#clients.get(client.id) !== client) return;
      this.#clients.delete(client.id);
      const reason = `client ${client.id} did not reconnect within ${this.#window} ms`;
      for (const hook of client.hooks.values()) this.engine.unregister(hook.engineId, reason);
      this.#emit({ type: "client_expired", clientId: client.id, removedHooks: client.hooks.size });
      client.hooks.clear();
    }, this.#window);
    // A reconnect window must not keep a host process alive on its own.
    (client.expiry as { unref?: () => void } | undefined)?.unref?.();
  }

  #checkClientLimits(client: RemoteClient, event: HookEventName): void {
    if (client.hooks.size >= this.#maxPerClient) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxHooksPerClient: client ${client.id} may register at most ${this.#maxPerClient} hooks`,
        { details: { limit: this.#maxPerClient } },
      );
    }
    let forEvent = 0;
    for (const h of client.hooks.values()) if (h.event === event) forEvent++;
    if (forEvent >= this.#maxPerEvent) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxHooksPerEventPerClient: client ${client.id} may register at most ${this.#maxPerEvent} hooks for ${event}`,
        { details: { limit: this.#maxPerEvent, event } },
      );
    }
  }

  #engineInfo(clientId: string) {
    return new Map(this.engine.list({ source: `remote:${clientId}` }).map((h) => [h.id, h]));
  }

  #emit(
    event: HubEvent extends infer E ? (E extends HubEvent ? Omit<E, "time"> : never) : never,
  ): void {
    this.#events.emit({ ...event, time: Date.now() } as HubEvent);
  }
}
