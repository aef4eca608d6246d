import type {
  AuditLevel,
  HookEngine,
  HookEvent,
  HookResult,
  SubscribeOptions,
  Unsubscribe,
} from "@a3s-lab/hooks-core";

/** One event the agent fired, and what its hooks decided. */
export interface Firing<E extends HookEvent = HookEvent> {
  event: E;
  result: HookResult<E>;
}

export type FiringListener = (firing: Firing) => void;

/**
 * The demo's engines run at this audit level so that every firing is reported (`fired` is a
 * verbose record); what reaches the audit file is filtered to the level the user chose.
 */
export const DEMO_ENGINE_AUDIT_LEVEL: AuditLevel = "verbose";

/**
 * Call `listener` after each firing settles, with the event and the merged result. The
 * transcript, the summary table and the `--events` log all read the engine's `fired` records,
 * so they show exactly what the hooks saw, including firings inside core's tool guard.
 *
 * @example
 * ```ts
 * const engine = new HookEngine({ auditLevel: "verbose" });
 * onFiring(engine, ({ event, result }) => console.log(event.eventType, result.action));
 * ```
 */
export function onFiring(
  engine: HookEngine,
  listener: FiringListener,
  options?: SubscribeOptions,
): Unsubscribe {
  return engine.on(
    "fired",
    (record) => listener({ event: record.input, result: record.result }),
    options,
  );
}
