import type { HookEvent } from "@a3s-lab/hooks-core";

/** How a hook ran, as the tracing records it. */
export type HookKind = "command" | "remote";

interface TracedFiring {
  /** The W3C `traceparent` of the firing's span. */
  readonly traceparent: string;
  /** Hooks that said how they ran; the rest ran in-process. */
  readonly kinds: Map<string, HookKind>;
  /** The event with the trace context in its metadata, made once for all remote hooks. */
  payload?: HookEvent;
}

/**
 * Firings in flight whose engine is traced, by event id. Empty unless `instrumentHooks` of
 * `@a3s-lab/hooks-node/otel` is in use: the lookups below then cost one size check.
 */
const traced = new Map<string, TracedFiring>();

/** Start carrying `traceparent` to the hooks of the firing `eventId`. */
export function beginTrace(eventId: string, traceparent: string): void {
  traced.set(eventId, { traceparent, kinds: new Map() });
}

/** Stop carrying it; returns how each hook that said so ran. */
export function endTrace(eventId: string): ReadonlyMap<string, HookKind> | undefined {
  const firing = traced.get(eventId);
  traced.delete(eventId);
  return firing?.kinds;
}

/**
 * The `traceparent` a command hook gets in `TRACEPARENT`, or undefined when the firing is not
 * traced. Records that the hook ran as a command.
 */
export function commandTraceparent(eventId: string, hookId: string): string | undefined {
  if (traced.size === 0) return undefined;
  const firing = traced.get(eventId);
  if (firing === undefined) return undefined;
  firing.kinds.set(hookId, "command");
  return firing.traceparent;
}

/**
 * The event a remote client gets: the same object when the firing is not traced, else a copy
 * whose `metadata.traceparent` carries the trace context. Records that the hook ran remotely.
 */
export function remotePayload(event: HookEvent, hookId: string): HookEvent {
  if (traced.size === 0) return event;
  const firing = traced.get(event.eventId);
  if (firing === undefined) return event;
  firing.kinds.set(hookId, "remote");
  firing.payload ??= {
    ...event,
    metadata: { ...event.metadata, traceparent: firing.traceparent },
  } as HookEvent;
  return firing.payload;
}
