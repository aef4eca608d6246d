import type { SubscribeOptions, Unsubscribe } from "../base/emitter.js";
import { describeValue, HookError } from "../base/hook-error.js";
import type { HookEvent, HookEventName } from "../events/event-schemas.js";
import type { HookAction } from "../merge/hook-response.js";
import type { HookResult } from "../merge/merge.js";

/** How much the engine reports: `off`, `info` (decisions and failures), `verbose` (every run). */
export type AuditLevel = "off" | "info" | "verbose";

/** The audit stream: everything the engine did, as typed records. */
export type AuditEvent = {
  /** Milliseconds since the epoch. */
  time: number;
} & (
  | {
      type: "registered";
      hookId: string;
      event: HookEventName;
      name?: string;
      source?: string;
    }
  | { type: "unregistered"; hookId: string; event: HookEventName; reason: string }
  | { type: "started"; hookId: string; event: HookEventName; eventId: string }
  | {
      type: "completed";
      hookId: string;
      event: HookEventName;
      eventId: string;
      action: HookAction;
      duration: number;
    }
  | {
      type: "failed";
      hookId: string;
      event: HookEventName;
      eventId: string;
      code: string;
      message: string;
      duration: number;
    }
  | {
      type: "timed_out";
      hookId: string;
      event: HookEventName;
      eventId: string;
      timeout: number;
    }
  | {
      type: "blocked";
      hookId: string;
      event: HookEventName;
      eventId: string;
      reason: string;
    }
  | {
      /** A PreToolUse hook answered in place of the tool, which did not run. */
      type: "responded";
      hookId: string;
      event: HookEventName;
      eventId: string;
      /** The length of the output it gave, in UTF-16 code units (the text stays out of logs). */
      outputLength: number;
    }
  | {
      type: "modified";
      hookId: string;
      event: HookEventName;
      eventId: string;
      paths: string[];
      conflicts: string[];
    }
  | {
      type: "fired";
      event: HookEventName;
      eventId: string;
      /** The hooks that ran, in execution order; empty when none matched. */
      hookIds: string[];
      /** The merged decision. */
      action: HookResult["action"];
      /** Milliseconds from the first hook's start to the merged result (0 when none ran). */
      duration: number;
      /** True when a hook's patch changed the event. */
      modified: boolean;
      reason?: string;
      /**
       * The event as fired and the merged result, for observers in this process. Not
       * enumerable: JSON and object spreads keep the summary above, never the event's data.
       */
      readonly input: HookEvent;
      readonly result: HookResult;
    }
  | ({ type: "approval" } & ApprovalAuditStep)
  | {
      type: "warning";
      event?: HookEventName;
      eventId?: string;
      hookId?: string;
      message: string;
    }
);

/**
 * One step of a deferred tool call's approval, as the host that parks calls records it (with
 * `HookEngine.recordApproval`): `parked` (the call waits; the hook's reason and routing),
 * `decided` (by a person: who, their reason, whether they edited the input), `expired` (the
 * deadline decided), `resumed` (the agent claimed the decision: the call `ran`, or was
 * `denied`, or a hook `blocked` it when PreToolUse fired again).
 */
export type ApprovalAuditStep = {
  /** The approval's id. */
  approvalId: string;
  sessionId: string;
  /** The deferred tool. */
  tool: string;
  toolUseId?: string;
} & (
  | {
      step: "parked";
      /** The deferring hooks' reason. */
      reason: string;
      /** Who may decide; absent means anyone who may decide at all. */
      deciders?: string[];
      /** ISO time the deadline decides. */
      deadline?: string;
      onDeadline?: "allow" | "deny";
    }
  | {
      step: "decided" | "expired";
      decision: "allow" | "deny";
      /** Who decided: a person's name, or the store's deadline marker. */
      decidedBy: string;
      reason?: string;
      /** True when the decider replaced the tool input. */
      edited: boolean;
    }
  | {
      step: "resumed";
      decision: "allow" | "deny";
      decidedBy: string;
      /** What became of the call: it `ran`, was `denied`, or a hook `blocked` it on the way. */
      outcome: "ran" | "denied" | "blocked";
    }
);

/** The `type` of an audit record: `fired`, `blocked`, `failed`, `timed_out`, … */
export type AuditEventType = AuditEvent["type"];
/** The audit record of one type: `AuditEventOf<"blocked">` has `reason`. */
export type AuditEventOf<T extends AuditEventType> = Extract<AuditEvent, { type: T }>;

/** The level at which each audit record is emitted. */
export const auditLevelOf: Readonly<Record<AuditEventType, Exclude<AuditLevel, "off">>> =
  Object.freeze({
    registered: "info",
    unregistered: "info",
    started: "verbose",
    completed: "verbose",
    failed: "info",
    timed_out: "info",
    blocked: "info",
    responded: "info",
    modified: "info",
    fired: "verbose",
    approval: "info",
    warning: "info",
  });

/** A listener for audit records, as {@link AuditSource.onAudit} and {@link onAudit} take it. */
export type AuditListener = (record: AuditEvent) => void;

/**
 * Anything that reports audit records through `onAudit`: a `HookEngine` (every record), or an
 * `A3sClient` of `@a3s-lab/box` (its own hooks' records). Sinks such as the JSON Lines log of
 * `@a3s-lab/hooks-node` and the audit trail take either.
 */
export interface AuditSource {
  /** Call `listener` with every audit record from now on; returns the way to stop. */
  onAudit(listener: AuditListener, options?: SubscribeOptions): Unsubscribe;
}

/**
 * Listen to the audit records of an engine or a client: the same as `source.onAudit(…)`, with
 * its arguments checked. Returns the way to stop (also `using`-disposable, and tied to
 * `options.signal` when given; an already-aborted signal subscribes nothing).
 *
 * @example
 * ```ts
 * using stop = onAudit(engine, (record) => console.log(record.type, record.time));
 * ```
 */
export function onAudit(
  source: AuditSource,
  listener: AuditListener,
  options: SubscribeOptions = {},
): Unsubscribe {
  if (typeof (source as { onAudit?: unknown } | null)?.onAudit !== "function") {
    throw new HookError(
      "INVALID_CONFIG",
      "source: expected a HookEngine or an A3sClient (something with an onAudit() method)",
      { path: ["source"] },
    );
  }
  if (typeof listener !== "function") {
    throw new HookError("INVALID_CONFIG", "listener: expected a function", {
      path: ["listener"],
    });
  }
  if (typeof options !== "object" || options === null) {
    throw new HookError("INVALID_CONFIG", "options: expected an object", {
      path: ["options"],
    });
  }
  return source.onAudit(listener, options);
}

/**
 * The record types an audit sink's `types` option selects, or undefined (the option left out)
 * for all of them. Throws a HookError naming `options.types` or the entry at fault; an empty
 * list, which would keep nothing, is refused as a mistake.
 *
 * @example
 * ```ts
 * const keep = auditTypeFilter(["blocked", "failed"]);
 * keep?.has(record.type);
 * ```
 */
export function auditTypeFilter(
  types: unknown,
  path: readonly (string | number)[] = ["options", "types"],
): ReadonlySet<AuditEventType> | undefined {
  if (types === undefined) return undefined;
  const known = Object.keys(auditLevelOf).join(", ");
  if (!Array.isArray(types) || types.length === 0) {
    throw new HookError(
      "INVALID_CONFIG",
      `${path.join(".")}: expected a non-empty array of ${known}; got ${describeValue(types)}`,
      { path },
    );
  }
  types.forEach((type: unknown, i) => {
    if (typeof type !== "string" || !Object.hasOwn(auditLevelOf, type)) {
      throw new HookError(
        "INVALID_CONFIG",
        `${[...path, i].join(".")}: expected one of ${known}; got ${describeValue(type)}`,
        { path: [...path, i] },
      );
    }
  });
  return new Set(types as AuditEventType[]);
}
