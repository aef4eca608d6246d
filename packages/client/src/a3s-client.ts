import {
  type AuditEvent,
  type AuditLevel,
  auditLevelOf,
  HookError,
  type HookEventNameInput,
  type HookHandle,
  type SubscribeOptions,
  type Unsubscribe,
} from "@a3s-lab/hooks-core";
import { defaultTimers, Emitter, parseOrThrow, randomId } from "@a3s-lab/hooks-core/internal";
import {
  DEFAULT_HOOK_PORT,
  type ExecuteToolResponse,
  type GenerateEventMessage,
  type GenerateProgress,
  type GenerateResult,
  type Transport,
} from "@a3s-lab/hooks-core/wire";
import { Backoff } from "./backoff.js";
import { ClientConnection, closedError } from "./client-connection.js";
import type { A3sClientEventName, A3sClientEvents } from "./client-events.js";
import { optionsSchema } from "./client-options.js";
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
  // Unlike Node's emitter, an `error` with no listener is not thrown: a hooks client must never
  // crash its host process over a handler's mistake.
  readonly #events = new Emitter<A3sClientEvents>();
  readonly #hooks = new Map<string, SyncedHook>();
  readonly #sync: HookSync;
  readonly #runner: HookRunner;
  readonly #connection: ClientConnection;
  #auditRank: number;

  constructor(options: A3sClientOptions, platform: ClientPlatform) {
    parseOrThrow(optionsSchema, options, "INVALID_CONFIG", ["options"]);
    this.clientId = options.clientId ?? randomId();
    this.address =
      options.address ?? platform.env("A3S_ADDRESS") ?? `127.0.0.1:${DEFAULT_HOOK_PORT}`;
    const token = options.token ?? platform.env("A3S_TOKEN");
    const factory = options.transport ?? platform.defaultTransport;
    this.#transport = factory({
      address: this.address,
      clientId: this.clientId,
      ...(token ? { token } : {}),
      ...(options.allowPlaintextRemote ? { allowPlaintextRemote: true } : {}),
    });
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
      send: (message) => this.#connection.send(message),
      error: (error) => this.#events.emit("error", error),
      audit: (record) => this.#audit(record),
      wantsAudit: (type) => this.#wants(type),
    });
    this.#connection = new ClientConnection({
      address: this.address,
      transport: this.#transport,
      sync: this.#sync,
      runner: this.#runner,
      events: this.#events,
      timers: options.timers ?? defaultTimers,
      backoff: new Backoff(options.reconnect?.initialDelayMs, options.reconnect?.maxDelayMs),
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      // Without a token, the agent's refusal says how to give one.
      missingToken: token ? undefined : (platform.tokenHint ?? "pass token"),
    });
  }

  /** The connection's state now. */
  get state(): ConnectionState {
    return this.#connection.state;
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
    options?: SubscribeOptions,
  ): Unsubscribe {
    return this.#events.on(name, listener, options);
  }

  /**
   * This client's own hooks at work, at the level `setHookAuditLevel` chose: the same call as
   * `HookEngine.onAudit`, so audit sinks (`writeAuditLog`, `AuditTrail`) take either.
   *
   * @example
   * ```ts
   * client.setHookAuditLevel("verbose");
   * client.onAudit((record) => console.log(record.type));
   * ```
   */
  onAudit(listener: (record: AuditEvent) => void, options?: SubscribeOptions): Unsubscribe {
    return this.#events.on("audit", listener, options);
  }

  /**
   * Register a hook; it runs here, in this process, when the agent fires a matching event.
   * Returns a handle at once, like `HookEngine.register`'s: its `id`, `unregister()`, and
   * `using` support. The registration is queued until connected, and sent again after a
   * reconnect if the agent lost it. Throws a `HookError` for an unknown event, a bad matcher
   * or bad config; a refusal by the agent arrives as an `error` event.
   *
   * @example
   * ```ts
   * const hook = client.registerHook("PreToolUse", {
   *   matcher: { tool: "Bash" },
   *   handler: (event) =>
   *     String(event.args.command).includes("rm -rf /") ? { action: "block", reason: "no" } : undefined,
   *   config: { failBehavior: "block" },
   * });
   * hook.unregister(); // or client.unregisterHook(hook.id)
   * ```
   */
  registerHook<N extends HookEventNameInput>(
    event: N,
    handlerOrOptions: HandlerOrOptions<N>,
  ): HookHandle {
    this.#assertOpen();
    const hook = toRegistration(event, handlerOrOptions as HandlerOrOptions<HookEventNameInput>);
    if (this.#hooks.has(hook.id)) {
      throw new HookError("INVALID_CONFIG", `id: this client already has a hook ${hook.id}`, {
        path: ["id"],
      });
    }
    const handle = this.#handle(hook);
    const signal = (handlerOrOptions as { signal?: AbortSignal }).signal;
    if (signal?.aborted) return handle;
    this.#hooks.set(hook.id, hook);
    if (signal) {
      const onAbort = () => this.unregisterHook(hook.id);
      signal.addEventListener("abort", onAbort, { once: true });
      hook.detach = () => signal.removeEventListener("abort", onAbort);
    }
    this.#connection.kick();
    return handle;
  }

  #handle(hook: SyncedHook): HookHandle {
    const { id } = hook;
    // A handle removes its own hook, never a later one registered again under the same id.
    const unregister = () => this.#hooks.get(id) === hook && this.unregisterHook(id);
    const handle: HookHandle & { toString(): string } = {
      id,
      ids: [id],
      unregister,
      [Symbol.dispose]: () => void unregister(),
      // Code written when `registerHook` returned the id still reads it in a template string.
      toString: () => id,
    };
    return handle;
  }

  /**
   * Remove one of this client's hooks, by id or by the handle `registerHook` returned.
   * Returns false when it has no such hook.
   */
  unregisterHook(idOrHandle: string | HookHandle): boolean {
    const id = typeof idOrHandle === "string" ? idOrHandle : idOrHandle?.id;
    const hook = this.#hooks.get(id);
    if (!hook) return false;
    this.#hooks.delete(id);
    hook.detach?.();
    this.#sync.removed(hook);
    this.#connection.kick();
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
    const { id, unregister } = this.registerHook(event, handlerOrOptions);
    const remove = async () => {
      if (unregister() && this.state === "ready") await this.ready().catch(() => {});
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
    return this.#connection.ready(options);
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
    if (this.#connection.state === "closed") return;
    for (const id of [...this.#hooks.keys()]) this.unregisterHook(id);
    await this.#connection.close(2000);
  }

  /** `await using client = new A3sClient()` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #assertOpen(): void {
    if (this.#connection.state === "closed") throw closedError();
  }

  #wants(type: AuditEvent["type"]): boolean {
    return (
      this.#auditRank >= LEVEL_RANK[auditLevelOf[type]] && this.#events.listenerCount("audit") > 0
    );
  }

  #audit(record: AuditEvent): void {
    if (this.#wants(record.type)) this.#events.emit("audit", record);
  }
}
