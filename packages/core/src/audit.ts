import type { HookEventName } from "./event-schemas.js";
import type { Unsubscribe } from "./hook-engine-options.js";
import { describeValue, HookError } from "./hook-error.js";
import type { HookAction } from "./hook-response.js";

/** How much the engine reports: `off`, `info` (decisions and failures), `verbose` (every run). */
export type AuditLevel = "off" | "info" | "verbose";

interface AuditBase {
  /** Milliseconds since the epoch. */
  time: number;
}

/** The audit stream: everything the engine did, as typed records. */
export type AuditEvent =
  | (AuditBase & {
      type: "registered";
      hookId: string;
      event: HookEventName;
      name?: string;
      source?: string;
    })
  | (AuditBase & { type: "unregistered"; hookId: string; event: HookEventName; reason: string })
  | (AuditBase & { type: "started"; hookId: string; event: HookEventName; eventId: string })
  | (AuditBase & {
      type: "completed";
      hookId: string;
      event: HookEventName;
      eventId: string;
      action: HookAction;
      duration: number;
    })
  | (AuditBase & {
      type: "failed";
      hookId: string;
      event: HookEventName;
      eventId: string;
      code: string;
      message: string;
      duration: number;
    })
  | (AuditBase & {
      type: "timed_out";
      hookId: string;
      event: HookEventName;
      eventId: string;
      timeout: number;
    })
  | (AuditBase & {
      type: "blocked";
      hookId: string;
      event: HookEventName;
      eventId: string;
      reason: string;
    })
  | (AuditBase & {
      type: "modified";
      hookId: string;
      event: HookEventName;
      eventId: string;
      paths: string[];
      conflicts: string[];
    })
  | (AuditBase & {
      type: "warning";
      event?: HookEventName;
      eventId?: string;
      hookId?: string;
      message: string;
    });

export type AuditEventType = AuditEvent["type"];
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
    modified: "info",
    warning: "info",
  });

type AuditListener = (record: AuditEvent) => void;
type SubscribeOptions = { signal?: AbortSignal };

/**
 * Anything that reports audit records: a `HookEngine` (every record, through `on("*")`), or an
 * `A3sClient` of `@a3s-lab/box` (its own hooks' records, through `on("audit")`). Sinks such as
 * the JSON Lines log of `@a3s-lab/hooks-node` and the browser's audit trail take either.
 */
export type AuditSource =
  | {
      readonly fire: unknown;
      on(type: "*", listener: AuditListener, options?: SubscribeOptions): Unsubscribe;
    }
  | { on(type: "audit", listener: AuditListener, options?: SubscribeOptions): Unsubscribe };

/**
 * Listen to the audit records of an engine or a client. Returns the way to stop (also
 * `using`-disposable, and tied to `options.signal` when given).
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
  if (typeof (source as { on?: unknown } | null)?.on !== "function") {
    throw new HookError(
      "INVALID_REGISTRATION",
      "source: expected a HookEngine or an A3sClient (something with an on() method)",
      { path: ["source"] },
    );
  }
  if (typeof listener !== "function") {
    throw new HookError("INVALID_REGISTRATION", "listener: expected a function", {
      path: ["listener"],
    });
  }
  if (typeof options !== "object" || options === null) {
    throw new HookError("INVALID_REGISTRATION", "options: expected an object", {
      path: ["options"],
    });
  }
  // A HookEngine reports every record under "*"; a client reports its own under "audit".
  return "fire" in source && typeof source.fire === "function"
    ? (source as Extract<AuditSource, { fire: unknown }>).on("*", listener, options)
    : (source as Exclude<AuditSource, { fire: unknown }>).on("audit", listener, options);
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
      "INVALID_REGISTRATION",
      `${path.join(".")}: expected a non-empty array of ${known}; got ${describeValue(types)}`,
      { path },
    );
  }
  types.forEach((type: unknown, i) => {
    if (typeof type !== "string" || !Object.hasOwn(auditLevelOf, type)) {
      throw new HookError(
        "INVALID_REGISTRATION",
        `${[...path, i].join(".")}: expected one of ${known}; got ${describeValue(type)}`,
        { path: [...path, i] },
      );
    }
  });
  return new Set(types as AuditEventType[]);
}
