import { EventEmitter } from "eventemitter3";
import {
  type AuditEvent,
  type AuditEventOf,
  type AuditEventType,
  type AuditLevel,
  auditLevelOf,
} from "./audit.js";
import type { HookEvent, HookEventName } from "./event-schemas.js";
import type { StoredHook } from "./firing.js";
import type { Unsubscribe } from "./hook-engine-options.js";
import { HookError } from "./hook-error.js";
import type { HookResult } from "./merge.js";

const LEVEL_RANK: Record<AuditLevel, number> = { off: 0, info: 1, verbose: 2 };

/**
 * An engine's audit stream: its level, its subscribers, and the records of registrations,
 * firings and late failures. A record is built only when its level is on and somebody
 * listens, so an engine nobody audits pays one comparison per firing.
 */
export class AuditStream {
  readonly #emitter = new EventEmitter();
  /** Subscriptions open now: with none, a firing skips its audit pass altogether. */
  #subscribers = 0;
  #rank: number;

  constructor(level: AuditLevel) {
    this.#rank = LEVEL_RANK[level];
  }

  get level(): AuditLevel {
    return (Object.keys(LEVEL_RANK) as AuditLevel[])[this.#rank]!;
  }
  set level(level: AuditLevel) {
    if (!Object.hasOwn(LEVEL_RANK, level)) {
      throw new HookError(
        "INVALID_REGISTRATION",
        `auditLevel: expected "off", "info" or "verbose", got ${JSON.stringify(level)}`,
      );
    }
    this.#rank = LEVEL_RANK[level];
  }

  /** True when `started` records are wanted (verbose, with a listener): each run then costs one. */
  get wantsStarts(): boolean {
    return this.#rank === 2 && this.wants("started");
  }

  /** See `HookEngine.on`. */
  on<T extends AuditEventType>(
    type: T | "*",
    listener: (record: T extends AuditEventType ? AuditEventOf<T> : AuditEvent) => void,
    options: { signal?: AbortSignal } = {},
  ): Unsubscribe {
    const fn = (record: AuditEvent) => {
      try {
        (listener as (record: AuditEvent) => void)(record);
      } catch (error) {
        // A broken listener must not break a firing (nor the listeners after it): the firing's
        // result is what keeps an agent safe. Reported where the platform has a place for it.
        (globalThis as { reportError?: (error: unknown) => void }).reportError?.(error);
      }
    };
    this.#emitter.on(type, fn);
    this.#subscribers++;
    let subscribed = true;
    const stop = () => {
      if (!subscribed) return;
      subscribed = false;
      this.#subscribers--;
      this.#emitter.off(type, fn);
    };
    const off = Object.assign(stop, { [Symbol.dispose]: stop });
    options.signal?.addEventListener("abort", off, { once: true });
    return off;
  }

  /** True when a record of this type would reach a listener: build it only then. */
  wants(type: AuditEventType): boolean {
    return (
      this.#subscribers > 0 &&
      this.#rank >= LEVEL_RANK[auditLevelOf[type]] &&
      (this.#emitter.listenerCount(type) > 0 || this.#emitter.listenerCount("*") > 0)
    );
  }

  emit(record: AuditEvent): void {
    this.#emitter.emit(record.type, record);
    this.#emitter.emit("*", record);
  }

  /** See `HookEngine.warn`. */
  warn(
    message: string,
    about: { event?: HookEventName; eventId?: string; hookId?: string } = {},
  ): void {
    if (this.wants("warning")) this.emit({ type: "warning", time: Date.now(), message, ...about });
  }

  /** A hook starts (verbose). */
  started(hook: StoredHook, event: HookEvent): void {
    this.emit({
      type: "started",
      time: Date.now(),
      hookId: hook.id,
      event: hook.event,
      eventId: event.eventId,
    });
  }

  /** A fire-and-forget hook failed or timed out after its firing was answered. */
  late(hook: StoredHook, eventId: string, error: HookError): void {
    const base = { time: Date.now(), hookId: hook.id, event: hook.event, eventId };
    if (error.code === "TIMEOUT") {
      if (this.wants("timed_out")) this.emit({ type: "timed_out", ...base, timeout: hook.timeout });
    } else if (this.wants("failed")) {
      this.emit({
        type: "failed",
        ...base,
        code: error.code,
        message: error.message,
        duration: 0,
      });
    }
  }

  /** The records of one finished firing. */
  report(event: HookEvent, hooks: readonly StoredHook[], result: HookResult): void {
    if (this.#rank === 0 || this.#subscribers === 0) return;
    const time = Date.now();
    const base = { time, event: event.eventType, eventId: event.eventId };
    const outcomes = result.outcomes;
    for (let i = 0; i < outcomes.length; i++) {
      const o = outcomes[i]!;
      const hook = hooks[i]!;
      if (o.status === "timeout" && this.wants("timed_out")) {
        this.emit({ type: "timed_out", ...base, hookId: o.hookId, timeout: hook.timeout });
      } else if (o.status === "failed" && this.wants("failed")) {
        this.emit({
          type: "failed",
          ...base,
          hookId: o.hookId,
          code: o.error?.code ?? "INTERNAL",
          message: o.error?.message ?? "",
          duration: o.duration,
        });
      } else if (o.status === "ok" && this.wants("completed")) {
        this.emit({
          type: "completed",
          ...base,
          hookId: o.hookId,
          action: o.action,
          duration: o.duration,
        });
      }
      if (o.modifiedPaths && this.wants("modified")) {
        const conflicts = result.conflicts
          .filter((c) => c.hookIds[1] === o.hookId)
          .map((c) => c.path);
        this.emit({
          type: "modified",
          ...base,
          hookId: o.hookId,
          paths: o.modifiedPaths,
          conflicts,
        });
      }
    }
    if (result.action === "block" && this.wants("blocked")) {
      this.emit({ type: "blocked", ...base, hookId: result.blockedBy!, reason: result.reason! });
    }
    for (const message of result.warnings) {
      if (this.wants("warning")) this.emit({ type: "warning", ...base, message });
    }
  }
}
