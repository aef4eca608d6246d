import { contextKey, type HookContext, type HookEvent } from "@a3s-lab/hooks-core";

/** How a hook ran, as the tracing records it. */
export type HookKind = "command" | "remote";

/** A traced firing, as `instrumentHooks`' middleware puts it on the firing's context. */
export interface TracedFiring {
  /** The W3C `traceparent` of the firing's span. */
  readonly traceparent: string;
  /** Hooks that said how they ran; the rest ran in-process. */
  readonly kinds: Map<string, HookKind>;
  /** The event with the trace context in its metadata, made once for all remote hooks. */
  payload?: HookEvent;
  /** The event `payload` was made from (a sequential firing's hooks may see changed ones). */
  source?: HookEvent;
}

/**
 * Where a traced firing's trace context travels: on the firing's context (`ctx.get`), set by
 * the middleware of `@a3s-lab/hooks-node/otel`. Untraced firings carry nothing: the readers
 * below then cost one lookup.
 */
export const TRACED_FIRING = contextKey<TracedFiring>("a3s.hooks.otel.firing");

/**
 * The `traceparent` a command hook gets in `TRACEPARENT`, or undefined when the firing is not
 * traced. Records that the hook ran as a command.
 */
export function commandTraceparent(ctx: HookContext | undefined): string | undefined {
  const firing = ctx?.get?.(TRACED_FIRING);
  if (firing === undefined) return undefined;
  firing.kinds.set(ctx!.hookId, "command");
  return firing.traceparent;
}

/**
 * The event a remote client gets: the same object when the firing is not traced, else a copy
 * whose `metadata.traceparent` carries the trace context. Records that the hook ran remotely.
 */
export function remotePayload(event: HookEvent, hookId: string, ctx: HookContext): HookEvent {
  const firing = ctx.get?.(TRACED_FIRING);
  if (firing === undefined) return event;
  firing.kinds.set(hookId, "remote");
  if (firing.source !== event || firing.payload === undefined) {
    firing.source = event;
    firing.payload = {
      ...event,
      metadata: { ...event.metadata, traceparent: firing.traceparent },
    } as HookEvent;
  }
  return firing.payload;
}
