import { type HookEventMessage, isWireId } from "./wire.js";

const EVENT_KEYS = new Set([
  "hookId",
  "eventType",
  "sessionId",
  "timestamp",
  "payload",
  "eventId",
  "deadlineMs",
  "cancel",
  "cancelReason",
]);

/** A frame's own keys, checked by `parseWireFrame` itself. */
const FRAME_KEYS = new Set([...EVENT_KEYS, "type", "id"]);

const optional = (value: unknown, type: "string" | "boolean") =>
  value === undefined || typeof value === type;
const finiteOrAbsent = (value: unknown) =>
  value === undefined || (typeof value === "number" && Number.isFinite(value));

/**
 * A HookEvent checked without its schema: what the schema returns for the messages an agent
 * sends (every field of the right type, a JSON object payload), or undefined for anything
 * else, which then goes through the schema, the authority on every other shape. Every client
 * reads one per firing, and the schema run was a tenth of its CPU. With `frame`, the value may
 * also carry a frame's `type` and `id`, which are left out of the answer.
 */
export function quickHookEvent(value: unknown, frame = false): HookEventMessage | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const m = value as Record<string, unknown>;
  const known = frame ? FRAME_KEYS : EVENT_KEYS;
  for (const key of Object.keys(m)) if (!known.has(key)) return undefined;
  const { hookId, eventType, sessionId, timestamp, payload, eventId, deadlineMs } = m;
  if (
    !isWireId(hookId) ||
    typeof eventType !== "string" ||
    eventType.length > 128 ||
    typeof eventId !== "string" ||
    eventId.length === 0 ||
    eventId.length > 256 ||
    !optional(sessionId, "string") ||
    !finiteOrAbsent(timestamp) ||
    !finiteOrAbsent(deadlineMs) ||
    !optional(m.cancel, "boolean") ||
    !optional(m.cancelReason, "string") ||
    !(payload === undefined || isJsonObject(payload))
  ) {
    return undefined;
  }
  const event: HookEventMessage = {
    hookId,
    eventType,
    sessionId: (sessionId as string | undefined) ?? "",
    timestamp: (timestamp as number | undefined) ?? 0,
    eventId,
    deadlineMs: (deadlineMs as number | undefined) ?? 0,
  };
  // A copy, as the schema's record makes one.
  if (payload !== undefined) event.payload = { ...(payload as Record<string, unknown>) };
  if (m.cancel !== undefined) event.cancel = m.cancel as boolean;
  if (m.cancelReason !== undefined) event.cancelReason = m.cancelReason as string;
  return event;
}

/** An object JSON.parse made, as the schema's record reads it: no `__proto__` key to drop. */
function isJsonObject(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "__proto__") &&
    Object.getOwnPropertySymbols(value).length === 0
  );
}
