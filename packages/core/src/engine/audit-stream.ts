import {
  type AuditEvent,
  type AuditEventOf,
  type AuditEventType,
  type AuditLevel,
  auditLevelOf,
} from "../audit/audit.js";
import { Emitter, type SubscribeOptions, type Unsubscribe } from "../base/emitter.js";
import { HookError } from "../base/hook-error.js";
import type { HookEvent, HookEventName } from "../events/event-schemas.js";
import type { HookResult } from "../merge/merge.js";
import type { StoredHook } from "./firing.js";

/**
 * The audit records by the name `HookEngine.on` takes: each record under its own type, and
 * every record under `"*"`. `AuditEvents["blocked"]` is what a `"blocked"` listener receives.
 */
export type AuditEvents = { [T in AuditEventType]: AuditEventOf<T> } & { "*": AuditEvent };

const LEVEL_RANK: Record<AuditLevel, number> = { off: 0, info: 1, verbose: 2 };

/**
 * An engine's audit stream: its level, its subscribers, and the records of registrations,
 * firings and late failures. A record is built only when its level is on and somebody
 * listens, so an engine nobody audits pays one comparison per firing.
 */
export class AuditStream {
  readonly #emitter = new Emitter<AuditEvents>();
  #rank: number;

  /** The engine's clock, read for a `fired` record's duration. */
  readonly #now: () => number;

  constructor(level: AuditLevel, now: () => number) {
    this.#rank = LEVEL_RANK[level];
    this.#now = now;
  }

  get level(): AuditLevel {
    return (Object.keys(LEVEL_RANK) as AuditLevel[])[this.#rank]!;
  }
  set level(level: AuditLevel) {
    if (!Object.hasOwn(LEVEL_RANK, level)) {
      throw new HookError(
        "INVALID_CONFIG",
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
  on<T extends AuditEventType | "*">(
    type: T,
    listener: (record: AuditEvents[T]) => void,
    options: SubscribeOptions = {},
  ): Unsubscribe {
    return this.#emitter.on(type, listener, options);
  }

  /** True when a record of this type would reach a listener: build it only then. */
  wants(type: AuditEventType): boolean {
    return (
      this.#emitter.listenerCount() > 0 &&
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
  report(event: HookEvent, hooks: readonly StoredHook[], result: HookResult, began: number): void {
    if (this.#rank === 0 || this.#emitter.listenerCount() === 0) return;
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
    if (result.respond !== undefined) {
      if (this.wants("responded")) {
        this.emit({
          type: "responded",
          ...base,
          hookId: result.respond.hookId,
          outputLength: result.respond.output.length,
        });
      }
    } else if (result.action === "block" && this.wants("blocked")) {
      this.emit({ type: "blocked", ...base, hookId: result.blockedBy!, reason: result.reason! });
    }
    for (const message of result.warnings) {
      if (this.wants("warning")) this.emit({ type: "warning", ...base, message });
    }
    if (this.wants("fired")) this.fired(event, result, this.#now() - began);
  }

  /** The summary of one firing; with no hook matched, `hookIds` is empty and `duration` 0. */
  fired(event: HookEvent, result: HookResult, duration: number): void {
    const record = {
      type: "fired",
      time: Date.now(),
      event: event.eventType,
      eventId: event.eventId,
      hookIds: result.outcomes.map((o) => o.hookId),
      action: result.action,
      duration,
      modified: result.modified,
      ...(result.reason !== undefined ? { reason: result.reason } : {}),
    } as AuditEventOf<"fired">;
    // The live objects, for observers in this process; left out of JSON and of spreads, so an
    // audit log keeps the summary and never the event's arguments.
    Object.defineProperties(record, {
      input: { value: event, enumerable: false },
      result: { value: result, enumerable: false },
    });
    this.emit(record);
  }
}
