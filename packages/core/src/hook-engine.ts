import { EventEmitter } from "eventemitter3";
import * as z from "zod/mini";
import {
  type AuditEvent,
  type AuditEventOf,
  type AuditEventType,
  type AuditLevel,
  auditLevelOf,
} from "./audit.js";
import { randomId } from "./create-event.js";
import {
  eventSchemas,
  type HookEvent,
  type HookEventMap,
  type HookEventName,
} from "./event-schemas.js";
import { eventSpecs, isHookEventName } from "./event-spec.js";
import { HookError } from "./hook-error.js";
import { CONTINUE, type HookResponse, hookResponseSchema } from "./hook-response.js";
import { type CompiledMatcher, compileMatcher } from "./matcher.js";
import {
  emptyResult,
  type FailBehavior,
  type HookResult,
  type OutcomeInput,
  ResultFolder,
} from "./merge.js";
import {
  type CanonicalEventName,
  type HookContext,
  type HookEventNameInput,
  type HookHandle,
  type HookHandler,
  type HookRegistration,
  type MultiEventHook,
  normalizeRegistration,
  type ValidRegistration,
} from "./registration.js";
import { defaultTimers, type Timers } from "./timers.js";
import { toHookError, type ValidationResult, validate } from "./validation.js";

/** Something that validates a tool's input, such as a zod schema. */
export interface InputSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: unknown };
}

export interface HookEngineOptions {
  /** `parallel` (default): all matching hooks start at once. `sequential`: each sees the last one's changes. */
  mode?: "parallel" | "sequential";
  /** Per-hook timeout in milliseconds when a registration gives none. Default 5000. */
  defaultTimeout?: number;
  /** Fail behaviour when a registration gives none. Default `continue`. */
  failBehavior?: FailBehavior;
  /** Default 10. */
  maxHooksPerEvent?: number;
  /** Default 50. */
  maxTotalHooks?: number;
  /** `false` turns every hook off: `fire` answers continue at once. */
  enabled?: boolean;
  /** Default `info`. */
  auditLevel?: AuditLevel;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
  /** Input schemas of the host's tools, used to validate a hook's `modified.args`. */
  toolSchemas?: Readonly<Record<string, InputSchema>>;
}

export interface FireOptions {
  /** Abort the firing: pending hooks are aborted and `fire` rejects with `ABORTED`. */
  signal?: AbortSignal;
}

/** A registered hook as `list()` shows it. */
export interface HookInfo {
  id: string;
  name?: string;
  event: HookEventName;
  priority: number;
  timeout: number;
  failBehavior: FailBehavior;
  async: boolean;
  once: boolean;
  source?: string;
  /** A readable form of the matcher: `Bash|Write`, `{"tool":"Write","pathPattern":"*.env"}`, `<function>`, `*`. */
  matcher: string;
  stats: { runs: number; blocks: number; failures: number; timeouts: number };
}

interface StoredHook {
  readonly id: string;
  readonly name: string | undefined;
  readonly event: HookEventName;
  readonly handler: HookHandler;
  readonly matcher: CompiledMatcher;
  readonly matcherText: string;
  readonly priority: number;
  readonly timeout: number;
  readonly failBehavior: FailBehavior;
  readonly async: boolean;
  readonly once: boolean;
  readonly source: string | undefined;
  readonly seq: number;
  readonly stats: HookInfo["stats"];
  detach?: () => void;
}

/** A function that stops a subscription; also `using`-disposable. */
export type Unsubscribe = (() => void) & Disposable;

const LEVEL_RANK: Record<AuditLevel, number> = { off: 0, info: 1, verbose: 2 };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  // A thenable check rather than instanceof, so promises from other realms work too.
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as PromiseLike<unknown>).then === "function"
  );
}

/**
 * What a handler gets as `ctx`. A class rather than an object literal with a getter: V8 builds
 * a literal with an accessor slowly (about 0.5 µs and 600 bytes on Node 20), and that was the
 * largest cost of running an async hook.
 */
class InvocationContext implements HookContext {
  #controller: AbortController | undefined;
  readonly hookId: string;
  readonly sessionId: string;
  readonly eventId: string;

  constructor(hookId: string, event: HookEvent) {
    this.hookId = hookId;
    this.sessionId = event.sessionId;
    this.eventId = event.eventId;
  }

  // Made on first use: most handlers never look at their signal, and one costs microseconds.
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** Abort the handler's signal, if it ever asked for one. */
  static abort(ctx: InvocationContext, reason: unknown): void {
    ctx.#controller?.abort(reason);
  }
}

/** One timer for the hooks of a parallel firing that share a timeout; a Node timer is not cheap. */
interface SharedTimeout {
  readonly ms: number;
  /** The timeout handlers of the hooks still running. */
  readonly waiting: Set<() => void>;
  timer: unknown;
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
  readonly #audit = new EventEmitter();
  readonly #timers: Timers;
  readonly #mode: "parallel" | "sequential";
  readonly #defaultTimeout: number;
  readonly #failBehavior: FailBehavior;
  readonly #maxPerEvent: number;
  readonly #maxTotal: number;
  readonly #toolSchemas: Readonly<Record<string, InputSchema>> | undefined;
  #enabled: boolean;
  #auditRank: number;
  #seq = 0;

  constructor(options: HookEngineOptions = {}) {
    const checked = validate(engineOptionsSchema, options, "INVALID_REGISTRATION", ["options"]);
    if (!checked.success) throw checked.error;
    this.#mode = options.mode ?? "parallel";
    this.#defaultTimeout = options.defaultTimeout ?? 5000;
    this.#failBehavior = options.failBehavior ?? "continue";
    this.#maxPerEvent = options.maxHooksPerEvent ?? 10;
    this.#maxTotal = options.maxTotalHooks ?? 50;
    this.#enabled = options.enabled ?? true;
    this.#auditRank = LEVEL_RANK[options.auditLevel ?? "info"];
    this.#timers = options.timers ?? defaultTimers;
    this.#toolSchemas = options.toolSchemas;
  }

  /** When false, `fire` answers continue at once and runs nothing. */
  get enabled(): boolean {
    return this.#enabled;
  }
  set enabled(value: boolean) {
    this.#enabled = value;
  }

  get auditLevel(): AuditLevel {
    return (Object.keys(LEVEL_RANK) as AuditLevel[])[this.#auditRank]!;
  }
  set auditLevel(level: AuditLevel) {
    if (!Object.hasOwn(LEVEL_RANK, level)) {
      throw new HookError(
        "INVALID_REGISTRATION",
        `auditLevel: expected "off", "info" or "verbose", got ${JSON.stringify(level)}`,
      );
    }
    this.#auditRank = LEVEL_RANK[level];
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
   * Register a hook for one event, or a seed-001 style hook object for several. Validates
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
          "INVALID_REGISTRATION",
          `registration.id: a hook with id ${JSON.stringify(hook.id)} is already registered`,
          {
            path: ["registration", "id"],
          },
        );
      }
    }
    const ids = stored.map((h) => h.id);
    const handle: HookHandle = {
      id:
        registrations.length > 1
          ? ((input as { id?: string }).id ?? ids[0]!.replace(/:[^:]*$/, ""))
          : ids[0]!,
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
    const matcher = compileMatcher(r.event, r.matcher as never, [...path, "matcher"]);
    return {
      id: r.id ?? randomId(),
      name: r.name,
      event: r.event,
      handler: r.handler as HookHandler,
      matcher,
      matcherText: describeMatcher(r.matcher),
      priority: r.priority ?? 0,
      timeout: r.timeout ?? this.#defaultTimeout,
      failBehavior: r.failBehavior ?? this.#failBehavior,
      async: r.async ?? false,
      once: r.once ?? false,
      source: r.source,
      seq: this.#seq++,
      stats: { runs: 0, blocks: 0, failures: 0, timeouts: 0 },
    };
  }

  #add(hook: StoredHook): void {
    // Copy on write: a firing in progress keeps iterating the array it started with.
    const list = [...(this.#byEvent.get(hook.event) ?? []), hook];
    list.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    this.#byEvent.set(hook.event, list);
    this.#byId.set(hook.id, hook);
    if (this.#wants("registered")) {
      this.#emit({
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
    if (this.#wants("unregistered")) {
      this.#emit({ type: "unregistered", time: Date.now(), hookId: id, event: hook.event, reason });
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
   * Subscribe to the audit stream: one record type, or `"*"` for all. Returns the way to stop.
   * The engine's audit level decides which records are emitted at all.
   */
  on<T extends AuditEventType>(
    type: T | "*",
    listener: (record: T extends AuditEventType ? AuditEventOf<T> : AuditEvent) => void,
    options: { signal?: AbortSignal } = {},
  ): Unsubscribe {
    const fn = listener as (record: AuditEvent) => void;
    this.#audit.on(type, fn);
    const off = Object.assign(() => void this.#audit.off(type, fn), {
      [Symbol.dispose]: () => void this.#audit.off(type, fn),
    });
    options.signal?.addEventListener("abort", off, { once: true });
    return off;
  }

  #wants(type: AuditEventType): boolean {
    return (
      this.#auditRank >= LEVEL_RANK[auditLevelOf[type]] &&
      (this.#audit.listenerCount(type) > 0 || this.#audit.listenerCount("*") > 0)
    );
  }

  /**
   * Put a warning in the audit stream, for adapters built on the engine (a transport's
   * malformed or late answers, a settings problem found at run time, …).
   */
  warn(
    message: string,
    about: { event?: HookEventName; eventId?: string; hookId?: string } = {},
  ): void {
    if (this.#wants("warning"))
      this.#emit({ type: "warning", time: Date.now(), message, ...about });
  }

  #emit(record: AuditEvent): void {
    this.#audit.emit(record.type, record);
    this.#audit.emit("*", record);
  }

  /**
   * Fire an event: run every matching hook and merge their answers into one result.
   * Never rejects because of a hook; rejects only for an unknown event or an aborted firing.
   *
   * The event is trusted to match its schema (build it with `createEvent`, or check outside
   * input with `validateEvent`); patches hooks make to it are validated.
   */
  fire<E extends HookEvent>(event: E, options?: FireOptions): Promise<HookResult<E>> {
    const hooks = this.#byEvent.get(event?.eventType);
    if (hooks === undefined || !this.#enabled) {
      if (!isHookEventName(event?.eventType)) return Promise.reject(unknownEvent(event));
      return Promise.resolve(emptyResult(event));
    }
    let matched: StoredHook[] | undefined;
    for (const hook of hooks) {
      if (hook.matcher === null || this.#matches(hook, event)) {
        (matched ??= []).push(hook);
        if (hook.once) this.unregister(hook.id, "once");
      }
    }
    if (matched === undefined) return Promise.resolve(emptyResult(event));
    return this.#run(event, matched, options?.signal);
  }

  #matches(hook: StoredHook, event: HookEvent): boolean {
    try {
      return hook.matcher!(event);
    } catch (error) {
      if (this.#wants("warning")) {
        this.#emit({
          type: "warning",
          time: Date.now(),
          event: event.eventType,
          eventId: event.eventId,
          hookId: hook.id,
          message: `matcher threw: ${HookError.from(error).message}`,
        });
      }
      return false;
    }
  }

  async #run<E extends HookEvent>(
    event: E,
    hooks: StoredHook[],
    signal: AbortSignal | undefined,
  ): Promise<HookResult<E>> {
    if (signal?.aborted) throw aborted(signal);
    const folder = new ResultFolder(event, {
      validateEvent: (next) => this.#validateModified(next),
    });
    if (this.#mode === "parallel") {
      // The hooks start together, so those with the first hook's timeout (usually all of them)
      // can share one timer instead of paying for one each.
      const shared: SharedTimeout | undefined =
        hooks.length > 1
          ? { ms: hooks[0]!.timeout, waiting: new Set(), timer: undefined }
          : undefined;
      const started = hooks.map((hook) => this.#invoke(hook, event, signal, shared));
      // One hook (the common case) needs no Promise.all: an allocation and a tick fewer.
      const outcomes = started.length === 1 ? [await started[0]!] : await Promise.all(started);
      for (const outcome of outcomes) folder.add(outcome);
    } else {
      for (const hook of hooks) {
        if (folder.done) {
          folder.add({
            hookId: hook.id,
            name: hook.name,
            status: "cancelled",
            failBehavior: hook.failBehavior,
            duration: 0,
          });
          continue;
        }
        folder.add(await this.#invoke(hook, folder.event, signal));
      }
    }
    if (signal?.aborted) throw aborted(signal);
    const result = folder.finish();
    this.#report(event, hooks, result);
    return result;
  }

  #validateModified(next: HookEvent): ValidationResult<unknown> {
    const schemaCheck = validate(eventSchemas[next.eventType], next, "INVALID_MODIFICATION");
    if (!schemaCheck.success) return schemaCheck;
    const tool = (next as { tool?: string }).tool;
    const toolSchema = tool === undefined ? undefined : this.#toolSchemas?.[tool];
    if (toolSchema && eventSpecs[next.eventType].modifiable.includes("args")) {
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

  /** Run one hook. Never rejects: every way a hook can fail becomes an outcome. */
  #invoke(
    hook: StoredHook,
    event: HookEvent,
    fireSignal: AbortSignal | undefined,
    shared?: SharedTimeout,
  ): Promise<OutcomeInput> | OutcomeInput {
    hook.stats.runs++;
    const start = this.#timers.now();
    const ctx = new InvocationContext(hook.id, event);
    if (this.#auditRank === 2 && this.#wants("started")) {
      this.#emit({
        type: "started",
        time: Date.now(),
        hookId: hook.id,
        event: hook.event,
        eventId: event.eventId,
      });
    }
    const finish = (
      status: OutcomeInput["status"],
      response: HookResponse | undefined,
      error?: HookError,
    ): OutcomeInput => {
      const outcome: OutcomeInput = {
        hookId: hook.id,
        name: hook.name,
        status,
        response,
        error,
        failBehavior: hook.failBehavior,
        duration: this.#timers.now() - start,
      };
      if (status === "failed") hook.stats.failures++;
      else if (status === "timeout") hook.stats.timeouts++;
      else if (response?.action === "block") hook.stats.blocks++;
      return outcome;
    };
    const settle = (value: unknown): OutcomeInput => {
      const response = toResponse(value);
      return response instanceof HookError
        ? finish("failed", undefined, response)
        : finish("ok", response);
    };

    let value: unknown;
    try {
      value = hook.handler(event as never, ctx);
    } catch (error) {
      return finish("failed", undefined, HookError.from(error, "HANDLER_FAILED"));
    }
    if (hook.async) {
      // Fire and forget: keep the timeout (so a runaway hook is aborted) but never wait.
      if (isThenable(value)) this.#background(hook, event, value, ctx);
      return finish("async", CONTINUE);
    }
    if (!isThenable(value)) return settle(value);

    return new Promise<OutcomeInput>((resolve) => {
      let settled = false;
      const done = (outcome: OutcomeInput) => {
        if (settled) return;
        settled = true;
        if (joined) {
          shared.waiting.delete(onTimeout);
          if (shared.waiting.size === 0) this.#timers.clearTimeout(shared.timer);
        } else this.#timers.clearTimeout(timer);
        fireSignal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onAbort = () => {
        InvocationContext.abort(ctx, fireSignal?.reason);
        done(finish("cancelled", undefined, new HookError("ABORTED", "the firing was aborted")));
      };
      const onTimeout = () => {
        const error = new HookError("TIMEOUT", `no answer within ${hook.timeout} ms`, {
          details: { timeout: hook.timeout },
        });
        InvocationContext.abort(ctx, error);
        done(finish("timeout", undefined, error));
      };
      const joined = shared?.ms === hook.timeout;
      if (joined) {
        if (shared.waiting.size === 0) {
          shared.timer = this.#timers.setTimeout(() => {
            for (const expire of shared.waiting) expire();
          }, hook.timeout);
        }
        shared.waiting.add(onTimeout);
      }
      const timer = joined ? undefined : this.#timers.setTimeout(onTimeout, hook.timeout);
      fireSignal?.addEventListener("abort", onAbort, { once: true });
      // Promise.resolve adopts foreign thenables safely: a then() that throws becomes a
      // rejection instead of escaping the executor (a native promise is returned as is).
      Promise.resolve(value).then(
        (v) => done(settle(v)),
        (error: unknown) =>
          done(finish("failed", undefined, HookError.from(error, "HANDLER_FAILED"))),
      );
    });
  }

  #background(
    hook: StoredHook,
    event: HookEvent,
    value: PromiseLike<unknown>,
    ctx: InvocationContext,
  ): void {
    let settled = false;
    const timer = this.#timers.setTimeout(() => {
      if (settled) return;
      settled = true;
      InvocationContext.abort(ctx, new HookError("TIMEOUT", `no answer within ${hook.timeout} ms`));
      hook.stats.timeouts++;
      if (this.#wants("timed_out")) {
        this.#emit({
          type: "timed_out",
          time: Date.now(),
          hookId: hook.id,
          event: hook.event,
          eventId: event.eventId,
          timeout: hook.timeout,
        });
      }
    }, hook.timeout);
    Promise.resolve(value).then(
      () => {
        settled = true;
        this.#timers.clearTimeout(timer);
      },
      (error: unknown) => {
        settled = true;
        this.#timers.clearTimeout(timer);
        hook.stats.failures++;
        if (this.#wants("failed")) {
          const e = HookError.from(error, "HANDLER_FAILED");
          this.#emit({
            type: "failed",
            time: Date.now(),
            hookId: hook.id,
            event: hook.event,
            eventId: event.eventId,
            code: e.code,
            message: e.message,
            duration: 0,
          });
        }
      },
    );
  }

  /** Emit the audit records of one firing. */
  #report(event: HookEvent, hooks: StoredHook[], result: HookResult): void {
    if (this.#auditRank === 0) return;
    const time = Date.now();
    const base = { time, event: event.eventType, eventId: event.eventId };
    for (const [i, o] of result.outcomes.entries()) {
      const hook = hooks[i]!;
      if (o.status === "timeout" && this.#wants("timed_out")) {
        this.#emit({ type: "timed_out", ...base, hookId: o.hookId, timeout: hook.timeout });
      } else if (o.status === "failed" && this.#wants("failed")) {
        this.#emit({
          type: "failed",
          ...base,
          hookId: o.hookId,
          code: o.error?.code ?? "INTERNAL",
          message: o.error?.message ?? "",
          duration: o.duration,
        });
      } else if (o.status === "ok" && this.#wants("completed")) {
        this.#emit({
          type: "completed",
          ...base,
          hookId: o.hookId,
          action: o.action,
          duration: o.duration,
        });
      }
      if (o.modifiedPaths && this.#wants("modified")) {
        const conflicts = result.conflicts
          .filter((c) => c.hookIds[1] === o.hookId)
          .map((c) => c.path);
        this.#emit({
          type: "modified",
          ...base,
          hookId: o.hookId,
          paths: o.modifiedPaths,
          conflicts,
        });
      }
    }
    if (result.action === "block" && this.#wants("blocked")) {
      this.#emit({ type: "blocked", ...base, hookId: result.blockedBy!, reason: result.reason! });
    }
    for (const message of result.warnings) {
      if (this.#wants("warning")) this.#emit({ type: "warning", ...base, message });
    }
  }
}

/** Validate a handler's return value; a HookError when it is not a response. */
function toResponse(value: unknown): HookResponse | HookError {
  if (value === undefined || value === null) return CONTINUE;
  // The common answer needs no schema run.
  if ((value as HookResponse).action === "continue" && Object.keys(value as object).length === 1)
    return CONTINUE;
  const checked = validate(hookResponseSchema, value, "INVALID_OUTPUT", ["response"]);
  return checked.success ? (checked.data as HookResponse) : checked.error;
}

function unknownEvent(event: unknown): HookError {
  const type = (event as { eventType?: unknown } | null | undefined)?.eventType;
  return new HookError(
    "UNKNOWN_EVENT",
    `event.eventType: unknown event name ${JSON.stringify(type ?? null)}`,
    { path: ["eventType"] },
  );
}

function aborted(signal: AbortSignal): HookError {
  return new HookError("ABORTED", "the firing was aborted", { cause: signal.reason });
}

const engineOptionsSchema = z.object({
  mode: z.optional(z.enum(["parallel", "sequential"])),
  defaultTimeout: z.optional(z.number().check(z.positive(), z.lte(2_147_483_647))),
  failBehavior: z.optional(z.enum(["continue", "block"])),
  maxHooksPerEvent: z.optional(z.int().check(z.positive())),
  maxTotalHooks: z.optional(z.int().check(z.positive())),
  enabled: z.optional(z.boolean()),
  auditLevel: z.optional(z.enum(["off", "info", "verbose"])),
  timers: z.optional(
    z.custom<Timers>((t) => typeof t === "object" && t !== null, "expected a timers object"),
  ),
  toolSchemas: z.optional(
    z.record(
      z.string(),
      z.custom<InputSchema>(
        (s) => typeof (s as InputSchema)?.safeParse === "function",
        "expected a schema with safeParse",
      ),
    ),
  ),
});

export type { CanonicalEventName, HookEventMap };
