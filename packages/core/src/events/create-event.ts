import { HookError } from "../base/hook-error.js";
import { type ValidationResult, validate } from "../base/validation.js";
import type { HookEventMap, HookEventName } from "./event-schemas.js";
import { resolveEventName, specOf } from "./event-spec.js";
import { unknownEventMessage } from "./suggest-event.js";

/** What a caller passes to {@link createEvent}: the event without the fields it fills in. */
export type EventInit<E extends HookEventName> = Omit<
  HookEventMap[E],
  "eventType" | "eventId" | "timestamp" | "metadata"
> &
  Partial<Pick<HookEventMap[E], "eventId" | "timestamp" | "metadata">>;

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * A random RFC 4122 v4 id. `crypto.randomUUID` exists only in secure contexts in browsers,
 * so fall back to `getRandomValues`, which exists everywhere.
 */
export function randomId(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Build an event, filling `eventId`, `timestamp` and `metadata` when they are left out, and
 * validate it against its schema. Throws a `HookError` (`INVALID_EVENT`) naming the bad field.
 *
 * @example
 * ```ts
 * const event = createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "ls" } });
 * ```
 */
export function createEvent<E extends HookEventName>(name: E, init: EventInit<E>): HookEventMap[E] {
  const result = safeCreateEvent(name, init);
  if (!result.success) throw result.error;
  return result.data;
}

/** {@link createEvent} without throwing. Also accepts aliases and other spellings of the name. */
export function safeCreateEvent<E extends HookEventName>(
  name: E | string,
  init: unknown,
): ValidationResult<HookEventMap[E]> {
  const canonical = typeof name === "string" ? resolveEventName(name) : undefined;
  if (!canonical) {
    return {
      success: false,
      error: new HookError("UNKNOWN_EVENT", unknownEventMessage(name), { path: ["eventType"] }),
    };
  }
  if (init === null || typeof init !== "object" || Array.isArray(init)) {
    return {
      success: false,
      error: new HookError(
        "INVALID_EVENT",
        `${canonical}: expected an object with the event's fields`,
      ),
    };
  }
  const fields = init as Record<string, unknown>;
  const event = {
    ...fields,
    eventType: canonical,
    eventId: fields.eventId ?? randomId(),
    timestamp: fields.timestamp ?? Date.now(),
    metadata: fields.metadata ?? {},
  };
  const checked = validate(specOf(canonical)!.schema, event, "INVALID_EVENT", [canonical]);
  // Return the caller's object (with defaults), not zod's output: extra host fields survive.
  return checked.success ? { success: true, data: event as unknown as HookEventMap[E] } : checked;
}

/** Validate any event object (for events that arrive from outside: the wire, stdin, files). */
export function validateEvent(value: unknown): ValidationResult<HookEventMap[HookEventName]> {
  const type = (value as { eventType?: unknown } | null)?.eventType;
  const canonical = typeof type === "string" ? resolveEventName(type) : undefined;
  if (!canonical) {
    return {
      success: false,
      error: new HookError("UNKNOWN_EVENT", `eventType: ${unknownEventMessage(type)}`, {
        path: ["eventType"],
      }),
    };
  }
  const event = { ...(value as object), eventType: canonical };
  const checked = validate(specOf(canonical)!.schema, event, "INVALID_EVENT");
  return checked.success ? { success: true, data: event as HookEventMap[HookEventName] } : checked;
}
