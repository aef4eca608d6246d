import {
  type AuditEventType,
  type AuditLevel,
  auditLevelOf,
  type HookEngine,
} from "@a3s-lab/hooks-core";
import { JsonlWriter, writeAuditLog } from "@a3s-lab/hooks-node";
import { type Firing, onFiring } from "./firings.js";

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
export function attachEventLog(engine: HookEngine, file: string): () => void {
  const out = new JsonlWriter(file);
  const off = onFiring(engine, (firing) => out.write(toEventLogRecord(firing)));
  return () => {
    off();
    out.close();
  };
}

/**
 * Write the engine's audit stream (registered, completed, blocked, modified, failed, …) to a
 * JSON Lines file. Returns the way to stop.
 */
export function attachAuditLog(
  engine: HookEngine,
  file: string,
  level: AuditLevel = "info",
): () => void {
  // The demo's engine reports at verbose (for its firing observers); the file keeps the level asked for.
  const rank = { off: 0, info: 1, verbose: 2 } as const;
  const types = (Object.keys(auditLevelOf) as AuditEventType[]).filter(
    (type) => rank[auditLevelOf[type]] <= rank[level],
  );
  if (types.length === 0) return () => {};
  const log = writeAuditLog(engine, file, { types });
  return () => log.close();
}
