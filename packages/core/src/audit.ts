import type { HookEventName } from "./event-schemas.js";
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
