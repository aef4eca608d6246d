import {
  type AuditEvent,
  type AuditLevel,
  auditLevelOf,
  DEFAULT_HOOK_PORT,
  defaultTimers,
  type ExecuteToolResponse,
  type GenerateEventMessage,
  type GenerateProgress,
  type GenerateResult,
  HookError,
  type HookEventNameInput,
  type HookStream,
  isWireId,
  parseOrThrow,
  randomId,
  type Timers,
  type Transport,
  type Unsubscribe,
} from "@a3s-lab/hooks-core";
import * as z from "zod/mini";
import { Backoff } from "./backoff.js";
import { type A3sClientEventName, type A3sClientEvents, ClientEmitter } from "./client-events.js";
import { HookRunner } from "./hook-runner.js";
import { HookSync, type SyncedHook } from "./hook-sync.js";
import { toHookInfo, toRegistration } from "./registration.js";
import type {
  A3sClientOptions,
  ClientPlatform,
  ConnectionState,
  HandlerOrOptions,
  RemoteHookInfo,
  TemporaryHook,
} from "./types.js";

const LEVEL_RANK: Record<AuditLevel, number> = { off: 0, info: 1, verbose: 2 };
// The agent refused who we are: retrying with the same credentials cannot help.
const FATAL = new Set(["UNAUTHENTICATED", "PERMISSION_DENIED"]);

interface Waiter {
  resolve(): void;
  reject(error: HookError): void;
}

/**
 * The transport-agnostic client. Use `A3sClient` from `@a3s-lab/box`: it is this class with the
 * platform's defaults (gRPC and the `A3S_*` environment in Node).
 */
export class A3sClientBase {
  /** This client's id on the agent (`x-a3s-client-id`). */
  readonly clientId: string;
  /** Where the agent's hook server is. */
  readonly address: string;
  readonly #transport: Transport;
  readonly #timers: Timers;
  readonly #events = new ClientEmitter();
  readonly #hooks = new Map<string, SyncedHook>();
  readonly #sync: HookSync;
  readonly #runner: HookRunner;
  readonly #backoff: Backoff;
  readonly #connectTimeout: number;
  #state: ConnectionState = "idle";
  #fatal: HookError | undefined;
  #lastError: HookError | undefined;
  #stream: HookStream | undefined;
  #connection: AbortController | undefined;
  #retry: unknown;
  #waiters: Waiter[] = [];
  #auditRank: number;

  constructor(options: A3sClientOptions, platform: ClientPlatform) {
    parseOrThrow(optionsSchema, options, "INVALID_CONFIG", ["options"]);
    this.clientId = options.clientId ?? randomId();
    this.address =
      options.address ?? platform.env("A3S_ADDRESS") ?? `127.0.0.1:${DEFAULT_HOOK_PORT}`;
    const token = options.token ?? platform.env("A3S_TOKEN");
    const factory = options.transport ?? platform.defaultTransport;
    if (!factory) {
      throw new HookError(
        "INVALID_CONFIG",
        `options.transport: ${platform.noTransportReason ?? "no default transport on this platform"}`,
        { path: ["options", "transport"] },
      );
    }
    this.#transport = factory({
      address: this.address,
      clientId: this.clientId,
      ...(token ? { token } : {}),
    });
    this.#timers = options.timers ?? defaultTimers;
    this.#backoff = new Backoff(options.reconnect?.initialDelayMs, options.reconnect?.maxDelayMs);
    this.#connectTimeout = options.connectTimeoutMs ?? 10_000;
    this.#auditRank = LEVEL_RANK[options.auditLevel ?? "off"];
    this.#sync = new HookSync({
      transport: this.#transport,
      hooks: this.#hooks,
      rejected: (hook, error) =>
        this.#events.emit(
          "error",
          new HookError(
            error.code,
            `the agent refused hook ${hook.name ?? hook.id}: ${error.message}`,
            {
              cause: error,
              details: { hookId: hook.id },
            },
          ),
        ),
      registered: (hook) =>
        this.#audit({
          type: "registered",
          time: Date.now(),
          hookId: hook.id,
          event: hook.event,
          ...(hook.name ? { name: hook.name } : {}),
          source: `remote:${this.clientId}`,
        }),
      unregistered: (id, event) => {
        if (event)
          this.#audit({
            type: "unregistered",
            time: Date.now(),
            hookId: id,
            event,
            reason: "unregistered",
          });
      },
    });
    this.#runner = new HookRunner({
      hook: (id) => this.#hooks.get(id),
      send: (message) => this.#stream?.send(message),
      error: (error) => this.#events.emit("error", error),
      audit: (record) => this.#audit(record),
      wantsAudit: (type) => this.#wants(type),
    });
  }

  /** The connection's state now. */
  get state(): ConnectionState {
    return this.#state;
  }

  /**
   * Listen to `state`, `error` or `audit` events. Returns the way to stop (also `using`-disposable).
   *
   * @example
   * ```ts
   * client.on("state", ({ state }) => console.log("hooks connection:", state));
   * client.on("error", (error) => console.warn(error.code, error.message));
   * ```
   */
  on<K extends A3sClientEventName>(
    name: K,
    listener: (value: A3sClientEvents[K]) => void,
    options?: { signal?: AbortSignal },
  ): Unsubscribe {
    return this.#events.on(name, listener, options);
  }

  /**
   * Register a hook; it runs here, in this process, when the agent fires a matching event.
   * Returns the hook's id at once: the registration is queued until connected, and sent
   * again after a reconnect if the agent lost it. Throws a `HookError` for an unknown event,
   * a bad matcher or bad config; a refusal by the agent arrives as an `error` event.
   *
   * @example
   * ```ts
   * const id = client.registerHook("PreToolUse", {
   *   matcher: { tool: "Bash" },
   *   handler: (event) =>
   *     String(event.args.command).includes("rm -rf /") ? { action: "block", reason: "no" } : undefined,
   *   config: { failBehavior: "block" },
   * });
   * ```
   */
  registerHook<N extends HookEventNameInput>(
    event: N,
    handlerOrOptions: HandlerOrOptions<N>,
  ): string {
    this.#assertOpen();
    const hook = toRegistration(event, handlerOrOptions as HandlerOrOptions<HookEventNameInput>);
    if (this.#hooks.has(hook.id)) {
      throw new HookError("INVALID_REGISTRATION", `id: this client already has a hook ${hook.id}`, {
        path: ["id"],
      });
    }
    const signal = (handlerOrOptions as { signal?: AbortSignal }).signal;
    if (signal?.aborted) return hook.id;
    this.#hooks.set(hook.id, hook);
    if (signal) {
      const onAbort = () => this.unregisterHook(hook.id);
      signal.addEventListener("abort", onAbort, { once: true });
      hook.detach = () => signal.removeEventListener("abort", onAbort);
    }
    this.#kick();
    return hook.id;
  }

  /** Remove one of this client's hooks. Returns false when it has no such hook. */
  unregisterHook(id: string): boolean {
    const hook = this.#hooks.get(id);
    if (!hook) return false;
    this.#hooks.delete(id);
    hook.detach?.();
    this.#sync.removed(hook);
    this.#kick();
    return true;
  }

  /** This client's hooks as the agent holds them, with their counters. */
  async listHooks(options: { signal?: AbortSignal } = {}): Promise<RemoteHookInfo[]> {
    await this.ready(options);
    const { hooks } = await this.#transport.call("ListHooks", {}, options);
    return hooks.map(toHookInfo);
  }

  /**
   * Register a hook for the duration of `fn` (removed even when `fn` throws), or, without
   * `fn`, for the scope of `await using`.
   *
   * @example
   * ```ts
   * await client.temporaryHook("PreToolUse", guard, () => client.generate(sessionId, "Do something"));
   * // or
   * await using hook = client.temporaryHook("PreToolUse", guard);
   * ```
   */
  temporaryHook<N extends HookEventNameInput>(
    event: N,
    handlerOrOptions: HandlerOrOptions<N>,
  ): TemporaryHook;
  temporaryHook<N extends HookEventNameInput, T>(
    event: N,
    handlerOrOptions: HandlerOrOptions<N>,
    fn: () => T | PromiseLike<T>,
  ): Promise<Awaited<T>>;
  temporaryHook<N extends HookEventNameInput, T>(
    event: N,
    handlerOrOptions: HandlerOrOptions<N>,
    fn?: () => T | PromiseLike<T>,
  ): TemporaryHook | Promise<Awaited<T>> {
    const id = this.registerHook(event, handlerOrOptions);
    const remove = async () => {
      if (this.unregisterHook(id) && this.#state === "ready") await this.ready().catch(() => {});
    };
    if (!fn) return { id, remove, [Symbol.asyncDispose]: remove };
    return (async (): Promise<Awaited<T>> => {
      try {
        await this.ready();
        return await fn();
      } finally {
        await remove();
      }
    })();
  }

  /**
   * Resolves once connected and every registration and removal made so far has reached the
   * agent. Rejects with `UNAVAILABLE` after `connectTimeoutMs` (or `options.timeoutMs`), or at
   * once with the agent's refusal (`UNAUTHENTICATED`, …), or when the client is closed.
   */
  ready(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    if (this.#state === "closed") return Promise.reject(closedError());
    if (this.#fatal) return Promise.reject(this.#fatal);
    this.#start();
    if (this.#settled()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) return reject(HookError.from(signal.reason, "ABORTED"));
      const timeoutMs = options.timeoutMs ?? this.#connectTimeout;
      const done = () => {
        this.#timers.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
      };
      const waiter: Waiter = {
        resolve: () => {
          done();
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(HookError.from(signal?.reason, "ABORTED"));
      const timer = this.#timers.setTimeout(() => {
        const last = this.#lastError ? ` (last error: ${this.#lastError.message})` : "";
        waiter.reject(
          new HookError(
            "UNAVAILABLE",
            `not connected to the agent at ${this.address} within ${timeoutMs} ms${last}`,
            {
              cause: this.#lastError,
            },
          ),
        );
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Create an agent session; resolves to its id. */
  async createSession(
    options: {
      sessionId?: string;
      workingDirectory?: string;
      model?: string;
      metadata?: Record<string, unknown>;
      signal?: AbortSignal;
    } = {},
  ): Promise<string> {
    const { signal, ...request } = options;
    await this.ready(signal ? { signal } : {});
    const response = await this.#transport.call("CreateSession", request, signal ? { signal } : {});
    return response.sessionId;
  }

  /** End an agent session (its SessionEnd hooks run). Resolves to false when there was none. */
  async destroySession(
    sessionId: string,
    options: { reason?: string; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    const { signal, reason } = options;
    await this.ready(signal ? { signal } : {});
    const response = await this.#transport.call(
      "DestroySession",
      { sessionId, ...(reason !== undefined ? { reason } : {}) },
      signal ? { signal } : {},
    );
    return response.destroyed;
  }

  /**
   * Run one tool in a session through the agent's hooks. A tool a hook blocked resolves with
   * `blocked: true` and the reason; it does not reject.
   */
  async executeTool(
    sessionId: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<ExecuteToolResponse> {
    await this.ready(options);
    return this.#transport.call("ExecuteTool", { sessionId, tool, args }, options);
  }

  /** Ask the agent to work on a prompt; resolves to its final result. */
  async generate(
    sessionId: string,
    prompt: string,
    options: { signal?: AbortSignal; onProgress?: (progress: GenerateProgress) => void } = {},
  ): Promise<GenerateResult> {
    const { onProgress, ...callOptions } = options;
    for await (const message of this.generateStream(sessionId, prompt, callOptions)) {
      if ("result" in message) return message.result;
      onProgress?.(message.progress);
    }
    throw new HookError("UNAVAILABLE", "the agent ended Generate without a result");
  }

  /** Ask the agent to work on a prompt, and watch it: progress messages, then one `result`. */
  async *generateStream(
    sessionId: string,
    prompt: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<GenerateEventMessage> {
    await this.ready(options);
    yield* this.#transport.generate({ sessionId, prompt }, options);
  }

  /** Which `audit` events this client emits about its own hooks: `off`, `info` or `verbose`. */
  setHookAuditLevel(level: AuditLevel): void {
    if (!Object.hasOwn(LEVEL_RANK, level)) {
      throw new HookError(
        "INVALID_CONFIG",
        `level: expected "off", "info" or "verbose", got ${JSON.stringify(level)}`,
      );
    }
    this.#auditRank = LEVEL_RANK[level];
  }

  /**
   * Remove this client's hooks from the agent (so none of them keeps answering with its fail
   * behaviour for a reconnect window), abort running handlers, and disconnect. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state === "closed") return;
    const wasReady = this.#state === "ready";
    for (const id of [...this.#hooks.keys()]) this.unregisterHook(id);
    if (wasReady && this.#connection) {
      const signal = this.#connection.signal;
      let timer: unknown;
      await Promise.race([
        this.#sync.flush(signal).catch(() => {}),
        new Promise<void>((resolve) => {
          timer = this.#timers.setTimeout(resolve, 2000);
        }),
      ]);
      this.#timers.clearTimeout(timer);
    }
    this.#setState("closed");
    this.#timers.clearTimeout(this.#retry);
    this.#connection?.abort(closedError());
    this.#stream?.close();
    this.#stream = undefined;
    this.#runner.abortAll(closedError());
    this.#rejectWaiters(closedError());
    await this.#transport.close();
  }

  /** `await using client = new A3sClient()` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #start(): void {
    if (this.#state === "idle") void this.#connect();
  }

  #kick(): void {
    if (this.#state === "idle") {
      this.#start();
      return;
    }
    if (this.#state !== "ready" || !this.#connection) return;
    const connection = this.#connection;
    this.#sync.flush(connection.signal).then(
      () => this.#resolveWaiters(),
      (error: unknown) => this.#lost(connection, HookError.from(error, "UNAVAILABLE")),
    );
  }

  async #connect(): Promise<void> {
    if (this.#state === "closed" || this.#fatal) return;
    this.#setState(this.#state === "idle" ? "connecting" : "reconnecting", this.#lastError);
    const connection = new AbortController();
    this.#connection = connection;
    let stream: HookStream;
    try {
      stream = await this.#transport.openHookStream(
        {
          onEvent: (message) => this.#runner.handle(message),
          onInvalid: (error, raw) => this.#runner.invalid(error, raw),
          onClose: (error) => {
            if (this.#connection === connection)
              this.#lost(
                connection,
                error ?? new HookError("UNAVAILABLE", "the hook stream closed"),
              );
          },
        },
        { signal: connection.signal },
      );
    } catch (error) {
      if (this.#connection === connection)
        this.#lost(connection, HookError.from(error, "UNAVAILABLE"));
      return;
    }
    // close() may have run while the stream was opening.
    if (this.#connection !== connection || (this.#state as ConnectionState) === "closed") {
      stream.close();
      return;
    }
    this.#stream = stream;
    try {
      await this.#sync.reconcile(connection.signal);
    } catch (error) {
      this.#lost(connection, HookError.from(error, "UNAVAILABLE"));
      return;
    }
    if (this.#connection !== connection) return;
    this.#backoff.reset();
    this.#lastError = undefined;
    this.#setState("ready");
    this.#resolveWaiters();
    // Registrations made while the reconcile ran.
    if (this.#sync.dirty) this.#kick();
  }

  /** The connection (or an attempt at one) ended: retry with backoff, or give up for good. */
  #lost(connection: AbortController, error: HookError): void {
    if (this.#connection !== connection || this.#state === "closed") return;
    this.#connection = undefined;
    connection.abort(error);
    this.#stream?.close();
    this.#stream = undefined;
    this.#sync.disconnected();
    // The agent answered the firings it was waiting for when the stream dropped.
    this.#runner.abortAll(
      new HookError("UNAVAILABLE", `connection lost: ${error.message}`, { cause: error }),
    );
    this.#lastError = error;
    this.#events.emit("error", error);
    if (FATAL.has(error.code)) {
      this.#fatal = error;
      this.#setState("failed", error);
      this.#rejectWaiters(error);
      return;
    }
    this.#setState("reconnecting", error);
    this.#retry = this.#timers.setTimeout(() => void this.#connect(), this.#backoff.next());
  }

  #setState(state: ConnectionState, error?: HookError): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#events.emit("state", { state, previous, ...(error ? { error } : {}) });
  }

  #settled(): boolean {
    return this.#state === "ready" && !this.#sync.dirty;
  }

  #resolveWaiters(): void {
    if (!this.#settled()) return;
    for (const waiter of [...this.#waiters]) waiter.resolve();
  }

  #rejectWaiters(error: HookError): void {
    for (const waiter of [...this.#waiters]) waiter.reject(error);
  }

  #assertOpen(): void {
    if (this.#state === "closed") throw closedError();
  }

  #wants(type: AuditEvent["type"]): boolean {
    return this.#auditRank >= LEVEL_RANK[auditLevelOf[type]] && this.#events.has("audit");
  }

  #audit(record: AuditEvent): void {
    if (this.#wants(record.type)) this.#events.emit("audit", record);
  }
}

const delay = z.int().check(z.positive(), z.lte(2_147_483_647));
const optionsSchema = z.object({
  address: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  token: z.optional(z.string().check(z.maxLength(4096))),
  clientId: z.optional(
    z.string().check(z.refine(isWireId, "expected 1 to 100 of A-Z a-z 0-9 . _ -")),
  ),
  transport: z.optional(z.custom((t) => typeof t === "function", "expected a function")),
  reconnect: z.optional(
    z.strictObject({ initialDelayMs: z.optional(delay), maxDelayMs: z.optional(delay) }),
  ),
  connectTimeoutMs: z.optional(delay),
  auditLevel: z.optional(z.enum(["off", "info", "verbose"])),
  timers: z.optional(z.custom((t) => typeof t === "object" && t !== null, "expected timers")),
});

function closedError(): HookError {
  return new HookError("UNAVAILABLE", "the client is closed");
}
