import type { HookEngine } from "@a3s-lab/hooks-core";
import { JsonlWriter, writeAuditLog } from "@a3s-lab/hooks-node";
import type { Firing, TracingHookEngine } from "./tracing-engine.js";

/** One line of the `--events` log: the event as fired, and the merged decision. */
export interface EventLogRecord {
  event: Firing["event"];
  result: {
    action: Firing["result"]["action"];
    reason?: string;
    modified: boolean;
    permission?: string;
    /** Hooks that ran (names where they have one, else ids). */
    hooks: string[];
  };
}

/** The compact form of a firing that the event log stores. */
export function toEventLogRecord({ event, result }: Firing): EventLogRecord {
  return {
    event,
    result: {
      action: result.action,
      ...(result.reason !== undefined ? { reason: result.reason } : {}),
      modified: result.modified,
      ...(result.permission !== undefined ? { permission: result.permission } : {}),
      hooks: result.outcomes.map((o) => o.name ?? o.hookId),
    },
  };
}

/**
 * Write every firing to a JSON Lines file: what tests read to prove each event fired where it
 * belongs with a valid payload. Returns the way to stop (which closes the file).
 */
export function attachEventLog(engine: TracingHookEngine, file: string): () => void {
  const out = new JsonlWriter(file);
  const off = engine.onFiring((firing) => out.write(toEventLogRecord(firing)));
  return () => {
    off();
    out.close();
  };
}

/**
 * Write the engine's audit stream (registered, completed, blocked, modified, failed, …) to a
 * JSON Lines file. Returns the way to stop.
 */
export function attachAuditLog(engine: HookEngine, file: string): () => void {
  const log = writeAuditLog(engine, file);
  return () => log.close();
}
