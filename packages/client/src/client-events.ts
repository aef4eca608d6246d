import type { AuditEvent, HookError } from "@a3s-lab/hooks-core";
import type { ConnectionState } from "./types.js";

/** The events an `A3sClient` emits, by name. */
export interface A3sClientEvents {
  /** The connection changed state; `error` says why it left `ready`, or why it failed. */
  state: { state: ConnectionState; previous: ConnectionState; error?: HookError };
  /**
   * Something went wrong that the client survived: a lost connection, a registration the agent
   * refused (`error.details.hookId`), a handler that threw (`details.hookId`, `details.eventId`).
   */
  error: HookError;
  /** This client's own hooks at work, at the level `setHookAuditLevel` chose. */
  audit: AuditEvent;
}

/** The name of an `A3sClient` event: `state`, `error`, `audit`, … */
export type A3sClientEventName = keyof A3sClientEvents;
