import type { ApprovalAuditStep, AuditEvent, AuditEventType, AuditLevel } from "../audit/audit.js";
import { DeadlineScheduler } from "../base/deadline-scheduler.js";
import type { SubscribeOptions, Unsubscribe } from "../base/emitter.js";
import { HookError } from "../base/hook-error.js";
import { JobClock } from "../base/job-clock.js";
import { defaultTimers } from "../base/timers.js";
import { toHookError, type ValidationResult, validate } from "../base/validation.js";
import { randomId } from "../events/create-event.js";
import type { HookEvent, HookEventMap, HookEventName } from "../events/event-schemas.js";
import { isHookEventName, specOf } from "../events/event-spec.js";
import { unknownEventMessage } from "../events/suggest-event.js";
import { emptyResult, type FailBehavior, type HookResult } from "../merge/merge.js";
import { type AuditEvents, AuditStream } from "./audit-stream.js";
import { hasCheckedAnswers } from "./checked-answers.js";
import { aborted, Firing, type FiringHost, type StoredHook } from "./firing.js";
import {
  engineOptionsSchema,
  type FireOptions,
  type HookEngineOptions,
  type HookInfo,
  type InputSchema,
} from "./hook-engine-options.js";
import { compileMatcher } from "./matcher.js";
import {
  checkMiddleware,
  fireThrough,
  type HookMiddleware,
  type Layer,
  type LayerHost,
  MiddlewareCall,
} from "./middleware.js";
import {
  type CanonicalEventName,
  type HookEventNameInput,
  type HookHandle,
  type HookHandler,
  type HookRegistration,
  type MultiEventHook,
  normalizeRegistration,
  type ValidRegistration,
} from "./registration.js";

let mayRun: (engine: HookEngine, types: readonly HookEventName[], probe: ToolProbe) => boolean;
let toolLayers: (engine: HookEngine, any?: boolean) => ToolLayers | undefined;

/** The middleware that wrap an engine's tool calls, for `runTool`. */
export interface ToolLayers {
  readonly layers: readonly Layer[];
  readonly host: LayerHost;
}

/** True when some middleware is installed on the engine: every firing and tool call then runs it. */
export function hasMiddleware(engine: HookEngine): boolean {
  return toolLayers(engine, true) !== undefined;
}

/** The engine's middleware with a `wrapToolCall`, or undefined when it has none. */
export function toolLayersOf(engine: HookEngine): ToolLayers | undefined {
  return toolLayers(engine);
}

/** The engine's middleware with a `wrapGenerate`, or undefined when it has none. */
export function generateLayersOf(engine: HookEngine): ToolLayers | undefined {
  const all = toolLayers(engine, true);
  return all?.layers.some((l) => l.middleware.wrapGenerate !== undefined) ? all : undefined;
}

/** The fields of a tool event that the engine's own matchers read: its type, tool and args. */
export interface ToolProbe {
  eventType: HookEventName;
  tool: string;
  args: Record<string, unknown>;
}

/**
 * False when firing any of `types` for a call of this tool with these arguments would run no
 * hook and emit no audit record: so a host may skip building the events. True whenever that
 * cannot be told without the whole event (a hook whose matcher is the author's own predicate,
 * a hook without a matcher, a `fired` audit listener, an installed middleware). `probe.eventType` is overwritten.
 */
export function mayRunForTool(
  engine: HookEngine,
  types: readonly HookEventName[],
  probe: ToolProbe,
): boolean {
  return mayRun(engine, types, probe);
}

function describeMatcher(matcher: unknown): string {
  if (matcher === undefined || matcher === "") return "*";
  if (typeof matcher === "function") return "<function>";
  return typeof matcher === "string" ? matcher : JSON.stringify(matcher);
}

/**
 * Registers hooks and fires events through them.
 *
 * @example
 * ```ts
 * const engine = new HookEngine();
 * engine.register({
 *   event: "PreToolUse",
 *   matcher: "Bash",
 *   handler: (event) =>
 *     String(event.args.command).includes("rm -rf /") ? block("Dangerous command") : undefined,
 * });
 * const result = await engine.fire(createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "rm -rf /" } }));
 * result.action; // "block"
 * ```
 */
export class HookEngine {
  readonly #byEvent = new Map<HookEventName, StoredHook[]>();
  readonly #byId = new Map<string, StoredHook>();
  readonly #audit: AuditStream;
  readonly #host: FiringHost;
  readonly #mode: "parallel" | "sequential";
  readonly #defaultTimeoutMs: number;
  readonly #failBehavior: FailBehavior;
  readonly #maxPerEvent: number;
  readonly #maxTotal: number;
  readonly #toolSchemas: Readonly<Record<string, InputSchema>> | undefined;
  readonly #layerHost: LayerHost;
  /** Installed middleware, in priority order; undefined when none (the fire path checks this). */
  #layers: readonly Layer[] | undefined;
  /** Whether some installed middleware wraps tool calls. */
  #wrapsTools = false;
  #enabled: boolean;
  #seq = 0;

  static {
    mayRun = (engine, types, probe) => {
      // Every firing, even one that runs nothing, is a `fired` record for such a listener.
      if (engine.#audit.wants("fired")) return true;
      // A middleware may answer for (or around) any firing and tool call, hooks or none.
      if (engine.#layers !== undefined) return true;
      if (!engine.#enabled) return false;
      for (const type of types) {
        const hooks = engine.#byEvent.get(type);
        if (hooks === undefined) continue;
        probe.eventType = type;
        for (const hook of hooks) {
          // The author's own predicate may read any field: only the whole event can tell.
          if (hook.matcher === null || hook.matcherText === "<function>") return true;
          try {
            if (hook.matcher(probe as unknown as HookEvent)) return true;
          } catch {
            // The firing itself runs it again, and reports what it throws.
            return true;
          }
        }
      }
      return false;
    };
    toolLayers = (engine, any) =>
      (any ? engine.#layers !== undefined : engine.#wrapsTools)
        ? { layers: engine.#layers!, host: engine.#layerHost }
        : undefined;
  }

  constructor(options: HookEngineOptions = {}) {
    const checked = validate(engineOptionsSchema, options, "INVALID_CONFIG", ["options"]);
    if (!checked.success) throw checked.error;
    this.#mode = options.mode ?? "parallel";
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 5000;
    this.#failBehavior = options.failBehavior ?? "continue";
    this.#maxPerEvent = options.maxHooksPerEvent ?? 10;
    this.#maxTotal = options.maxTotalHooks ?? 50;
    this.#enabled = options.enabled ?? true;
    const timers = options.timers ?? defaultTimers;
    const audit = new AuditStream(options.auditLevel ?? "info", () => timers.now());
    this.#audit = audit;
    this.#toolSchemas = options.toolSchemas;
    this.#host = {
      timers,
      jobClock: new JobClock(timers),
      deadlines: new DeadlineScheduler(timers),
      mergeOptions: { validateEvent: (next) => this.#validateModified(next) },
      report: (event, hooks, result, began) => audit.report(event, hooks, result, began),
      started: (hook, event) => audit.started(hook, event),
      late: (hook, eventId, error) => audit.late(hook, eventId, error),
      warn: (message, about) => audit.warn(message, about),
    };
    this.#layerHost = {
      mergeOptions: this.#host.mergeOptions,
      warn: (message, about) => audit.warn(message, about),
    };
  }

  /** When false, `fire` answers continue at once and runs nothing. */
  get enabled(): boolean {
    return this.#enabled;
  }
  /** Turn every hook off (`false`) or back on; registrations are kept either way. */
  set enabled(value: boolean) {
    this.#enabled = value;
  }

  /** Which audit records the engine emits: `off`, `info` (the default) or `verbose`. */
  get auditLevel(): AuditLevel {
    return this.#audit.level;
  }
  /** Change the audit level; listeners stay subscribed. */
  set auditLevel(level: AuditLevel) {
    this.#audit.level = level;
  }

  /** The timeout, in milliseconds, of a hook registered without one (the `defaultTimeoutMs` option). */
  get defaultTimeoutMs(): number {
    return this.#defaultTimeoutMs;
  }

  /** How many hooks are registered, in all or for one event. */
  size(event?: HookEventName): number {
    return event === undefined ? this.#byId.size : (this.#byEvent.get(event)?.length ?? 0);
  }

  /** True when at least one hook is registered for the event (matchers not consulted). */
  has(event: HookEventName): boolean {
    return this.#byEvent.has(event);
  }

  /**
   * Register a hook for one event, or a multi-event hook object for several. Validates
   * everything and compiles the matcher now; throws a `HookError` naming the bad field.
   */
  register<N extends HookEventNameInput>(registration: HookRegistration<N>): HookHandle;
  register<N extends HookEventNameInput>(hook: MultiEventHook<N>): HookHandle;
  register(
    input: HookRegistration<HookEventNameInput> | MultiEventHook<HookEventNameInput>,
  ): HookHandle {
    const registrations = normalizeRegistration(input);
    const signal = registrations[0]?.signal;
    const stored = registrations.map((r, i) =>
      this.#prepare(r, registrations.length > 1 ? ["registration", "events", i] : ["registration"]),
    );
    // All or nothing: check limits and ids for the whole batch before adding any.
    if (this.#byId.size + stored.length > this.#maxTotal) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `maxTotalHooks: at most ${this.#maxTotal} hooks may be registered (have ${this.#byId.size})`,
        {
          details: { limit: this.#maxTotal },
        },
      );
    }
    for (const hook of stored) {
      const count = this.size(hook.event) + stored.filter((h) => h.event === hook.event).length;
      if (count > this.#maxPerEvent) {
        throw new HookError(
          "LIMIT_EXCEEDED",
          `maxHooksPerEvent: at most ${this.#maxPerEvent} hooks may be registered for ${hook.event}`,
          {
            details: { limit: this.#maxPerEvent, event: hook.event },
          },
        );
      }
      if (this.#byId.has(hook.id)) {
        throw new HookError(
          "INVALID_CONFIG",
          `registration.id: a hook with id ${JSON.stringify(hook.id)} is already registered`,
          {
            path: ["registration", "id"],
          },
        );
      }
    }
    const ids = stored.map((h) => h.id);
    const handle: HookHandle = {
      id: registrations.length > 1 ? ((input as { id?: string }).id ?? ids[0]!) : ids[0]!,
      ids,
      unregister: () => ids.map((id) => this.unregister(id)).some(Boolean),
      [Symbol.dispose]: () => {
        handle.unregister();
      },
    };
    if (signal?.aborted) return handle;
    for (const hook of stored) this.#add(hook);
    if (signal) {
      const onAbort = () => handle.unregister();
      signal.addEventListener("abort", onAbort, { once: true });
      for (const hook of stored) hook.detach = () => signal.removeEventListener("abort", onAbort);
    }
    return handle;
  }

  #prepare(r: ValidRegistration, path: (string | number)[]): StoredHook {
    const matcher = compileMatcher(
      r.event,
      r.matcher as never,
      [...path, "matcher"],
      r.regex === undefined ? {} : { regex: r.regex },
    );
    return {
      id: r.id ?? randomId(),
      name: r.name,
      event: r.event,
      handler: r.handler as HookHandler,
      matcher,
      matcherText: describeMatcher(r.matcher),
      priority: r.priority ?? 0,
      timeout: r.timeoutMs ?? this.#defaultTimeoutMs,
      failBehavior: r.failBehavior ?? this.#failBehavior,
      async: r.async ?? false,
      once: r.once ?? false,
      source: r.source,
      seq: this.#seq++,
      stats: { runs: 0, blocks: 0, failures: 0, timeouts: 0 },
      checkedAnswers: hasCheckedAnswers(r.handler),
    };
  }

  #add(hook: StoredHook): void {
    // Copy on write: a firing in progress keeps iterating the array it started with.
    const list = [...(this.#byEvent.get(hook.event) ?? []), hook];
    list.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    this.#byEvent.set(hook.event, list);
    this.#byId.set(hook.id, hook);
    if (this.#audit.wants("registered")) {
      this.#audit.emit({
        type: "registered",
        time: Date.now(),
        hookId: hook.id,
        event: hook.event,
        ...(hook.name !== undefined ? { name: hook.name } : {}),
        ...(hook.source !== undefined ? { source: hook.source } : {}),
      });
    }
  }

  /** Remove a hook by id. Returns false when no such hook is registered. */
  unregister(id: string, reason = "unregistered"): boolean {
    const hook = this.#byId.get(id);
    if (!hook) return false;
    this.#byId.delete(id);
    const rest = this.#byEvent.get(hook.event)!.filter((h) => h !== hook);
    if (rest.length === 0) this.#byEvent.delete(hook.event);
    else this.#byEvent.set(hook.event, rest);
    hook.detach?.();
    if (this.#audit.wants("unregistered")) {
      this.#audit.emit({
        type: "unregistered",
        time: Date.now(),
        hookId: id,
        event: hook.event,
        reason,
      });
    }
    return true;
  }

  /** Remove every hook (or every hook whose `source` is the one given). Returns how many. */
  clear(source?: string): number {
    let count = 0;
    for (const hook of [...this.#byId.values()]) {
      if (source === undefined || hook.source === source)
        count += Number(this.unregister(hook.id, "cleared"));
    }
    return count;
  }

  /** The registered hooks, in execution order per event. */
  list(filter: { event?: HookEventName; source?: string } = {}): HookInfo[] {
    const out: HookInfo[] = [];
    for (const [event, hooks] of this.#byEvent) {
      if (filter.event !== undefined && filter.event !== event) continue;
      for (const h of hooks) {
        if (filter.source !== undefined && h.source !== filter.source) continue;
        const info: HookInfo = {
          id: h.id,
          event: h.event,
          priority: h.priority,
          timeout: h.timeout,
          failBehavior: h.failBehavior,
          async: h.async,
          once: h.once,
          matcher: h.matcherText,
          stats: { ...h.stats },
        };
        if (h.name !== undefined) info.name = h.name;
        if (h.source !== undefined) info.source = h.source;
        out.push(info);
      }
    }
    return out;
  }

  /**
   * Install a middleware: code around every firing (`wrapFire`) and around the tool of every
   * `runTool` call (`wrapToolCall`), which can observe, rewrite, or answer in place. Checks it
   * now (a `HookError` names the bad field). Returns the way to take it off again (also
   * `using`-disposable). An engine with none installed pays one field check per firing.
   *
   * @example
   * ```ts
   * using _audit = engine.use({
   *   name: "timing",
   *   wrapFire: async (event, ctx, next) => {
   *     const started = performance.now();
   *     const result = await next();
   *     console.log(event.eventType, result.action, performance.now() - started);
   *     return result;
   *   },
   * });
   * ```
   */
  use<N extends HookEventName = HookEventName>(middleware: HookMiddleware<N>): Unsubscribe {
    const layer = checkMiddleware(middleware, this.#seq++);
    const layers = [...(this.#layers ?? []), layer];
    layers.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    this.#setLayers(layers);
    let on = true;
    const off = () => {
      if (!on) return;
      on = false;
      this.#setLayers((this.#layers ?? []).filter((l) => l !== layer));
    };
    return Object.assign(off, { [Symbol.dispose]: off });
  }

  #setLayers(layers: readonly Layer[]): void {
    // Copy on write: a firing in progress keeps the chain it started with.
    this.#layers = layers.length === 0 ? undefined : layers;
    this.#wrapsTools = layers.some((l) => l.middleware.wrapToolCall !== undefined);
  }

  /**
   * Subscribe to the audit stream: one record type, or `"*"` for all. Returns the way to stop
   * (also `using`-disposable, and tied to `options.signal`). The engine's audit level decides
   * which records are emitted at all.
   *
   * @example
   * ```ts
   * using stop = engine.on("blocked", (record) => console.warn(record.hookId, record.reason));
   * ```
   */
  on<T extends AuditEventType | "*">(
    type: T,
    listener: (record: AuditEvents[T]) => void,
    options: SubscribeOptions = {},
  ): Unsubscribe {
    return this.#audit.on(type, listener, options);
  }

  /**
   * Every audit record, the same call as `A3sClient.onAudit`, so audit sinks take either.
   * `fired` records summarise each firing (hooks run, decision, duration) and hold the event
   * and merged result for observers in this process.
   *
   * @example
   * ```ts
   * engine.onAudit((record) => {
   *   if (record.type === "fired") console.log(record.event, record.action, record.duration);
   * });
   * ```
   */
  onAudit(listener: (record: AuditEvent) => void, options: SubscribeOptions = {}): Unsubscribe {
    return this.#audit.on("*", listener, options);
  }

  /**
   * Put a warning in the audit stream, for adapters built on the engine (a transport's
   * malformed or late answers, a settings problem found at run time, …).
   */
  warn(
    message: string,
    about: { event?: HookEventName; eventId?: string; hookId?: string } = {},
  ): void {
    this.#audit.warn(message, about);
  }

  /**
   * Put a step of a deferred call's approval in the audit stream (an `approval` record, at
   * level `info`), for hosts that park deferred calls: parked, decided, expired, resumed.
   *
   * @example
   * ```ts
   * engine.recordApproval({ step: "decided", approvalId, sessionId, tool: "Bash",
   *   decision: "allow", decidedBy: "alice", edited: false });
   * ```
   */
  recordApproval(step: ApprovalAuditStep): void {
    if (this.#audit.wants("approval")) {
      this.#audit.emit({ type: "approval", time: Date.now(), ...step });
    }
  }

  /**
   * Fire an event: run every matching hook and merge their answers into one result.
   * Never rejects because of a hook; rejects only for an unknown event or an aborted firing.
   * Whatever a hook answers (data nested past `MAX_JSON_DEPTH`, a cycle, a getter that throws)
   * and whatever fails while its answer is handled (a tool schema, an audit listener) is that
   * hook's failure under its `failBehavior`. Should the merge itself fail, the result blocks
   * when the event can block and any hook that ran was fail-closed or had blocked; otherwise
   * it continues with the event unchanged, and says so in `warnings`.
   *
   * The event is trusted to match its schema (build it with `createEvent`, or check outside
   * input with `validateEvent`); patches hooks make to it are validated.
   */
  fire<E extends HookEvent>(event: E, options?: FireOptions): Promise<HookResult<E>> {
    if (this.#layers !== undefined) return this.#fireWrapped(event, options, this.#layers);
    return this.#fireHooks(event, options, undefined);
  }

  #fireWrapped<E extends HookEvent>(
    event: E,
    options: FireOptions | undefined,
    layers: readonly Layer[],
  ): Promise<HookResult<E>> {
    if (!isHookEventName(event?.eventType)) return Promise.reject(unknownEvent(event));
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    const ctx = new MiddlewareCall(signal);
    return fireThrough(
      layers,
      event,
      ctx,
      (inner) => this.#fireHooks(inner, options, ctx),
      this.#layerHost,
    );
  }

  #fireHooks<E extends HookEvent>(
    event: E,
    options: FireOptions | undefined,
    values: MiddlewareCall | undefined,
  ): Promise<HookResult<E>> {
    const hooks = this.#byEvent.get(event?.eventType);
    if (hooks === undefined || !this.#enabled) {
      if (!isHookEventName(event?.eventType)) return Promise.reject(unknownEvent(event));
      return Promise.resolve(this.#nothingRan(event));
    }
    // The lists are copied on write, never changed in place, so while every hook matches (the
    // usual case) the list itself is the firing's: no array per firing, and none when no hook
    // matches either.
    let matched: StoredHook[] | undefined = hooks;
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]!;
      if (hook.matcher === null || this.#matches(hook, event)) {
        if (matched !== hooks) (matched ??= []).push(hook);
        if (hook.once) this.unregister(hook.id, "once");
      } else if (matched === hooks) matched = i > 0 ? hooks.slice(0, i) : undefined;
    }
    if (matched === undefined) return Promise.resolve(this.#nothingRan(event));
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    return new Firing(
      this.#host,
      event,
      matched,
      this.#mode === "sequential",
      signal,
      this.#audit.wantsStarts,
      values,
    ).run();
  }

  /** The answer when no hook ran; its `fired` record only when somebody listens for one. */
  #nothingRan<E extends HookEvent>(event: E): HookResult<E> {
    const result = emptyResult(event);
    if (this.#audit.wants("fired")) this.#audit.fired(event, result, 0);
    return result;
  }

  #matches(hook: StoredHook, event: HookEvent): boolean {
    try {
      return hook.matcher!(event);
    } catch (error) {
      this.#audit.warn(`matcher threw: ${HookError.from(error).message}`, {
        event: event.eventType,
        eventId: event.eventId,
        hookId: hook.id,
      });
      return false;
    }
  }

  #validateModified(next: HookEvent): ValidationResult<unknown> {
    const schemaCheck = validate(specOf(next.eventType)!.schema, next, "INVALID_MODIFICATION");
    if (!schemaCheck.success) return schemaCheck;
    const tool = (next as { tool?: string }).tool;
    const toolSchema = tool === undefined ? undefined : this.#toolSchemas?.[tool];
    if (toolSchema && specOf(next.eventType)!.modifiable.includes("args")) {
      const args = (next as { args: unknown }).args;
      const checked = toolSchema.safeParse(args);
      if (checked.success) return schemaCheck;
      // Any schema library will do: zod errors get their fields named, others their message.
      const error = checked.error as { issues?: unknown; message?: unknown } | undefined;
      return {
        success: false,
        error: Array.isArray(error?.issues)
          ? toHookError("INVALID_MODIFICATION", error as never, args, ["args"])
          : new HookError(
              "INVALID_MODIFICATION",
              `args: ${typeof error?.message === "string" ? error.message : "rejected by the tool's input schema"}`,
              { path: ["args"] },
            ),
      };
    }
    return schemaCheck;
  }
}

function unknownEvent(event: unknown): HookError {
  const type = (event as { eventType?: unknown } | null | undefined)?.eventType;
  return new HookError("UNKNOWN_EVENT", `event.eventType: ${unknownEventMessage(type ?? null)}`, {
    path: ["eventType"],
  });
}

export type {
  CanonicalEventName,
  FireOptions,
  HookEngineOptions,
  HookEventMap,
  HookInfo,
  InputSchema,
};
