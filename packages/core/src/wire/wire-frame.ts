import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { copyJsonData, type MAX_JSON_DEPTH, tooDeepField } from "../base/json-limits.js";
import { type ValidationResult, validate } from "../base/validation.js";
import { frameIdSchema, type WireMessageMap, type WireMessageType, wireSchemas } from "./wire.js";
import { quickHookEvent } from "./wire-quick.js";

/**
 * A message as a frame on a message transport: the message's fields plus its `type`, and an
 * optional `id` that pairs a request with its answer when calls share one connection.
 */
export type WireFrame = {
  [K in WireMessageType]: WireMessageMap[K] & { type: K; id?: string };
}[WireMessageType];

/** Largest frame {@link parseWireFrame} accepts, in characters of JSON (4 MiB). */
export const MAX_FRAME_CHARS = 4 * 1024 * 1024;

const optionalFrameId = z.optional(frameIdSchema);

/**
 * The close codes of the hook server's WebSocket endpoint, read the same way by the server
 * and by every client. 1000 to 1011 are RFC 6455's; the 44xx codes are the endpoint's own,
 * modelled on HTTP statuses so they read at a glance.
 *
 * @example
 * ```ts
 * socket.addEventListener("close", (e) => {
 *   if (e.code === WS_CLOSE_CODES.unauthenticated) askForANewToken();
 * });
 * ```
 */
export const WS_CLOSE_CODES = Object.freeze({
  /** Closed on purpose by either side. */
  normal: 1000,
  /** The hook server is shutting down. */
  goingAway: 1001,
  /** A binary frame: the protocol speaks JSON text frames only. */
  unsupportedData: 1003,
  /** The server failed while handling the connection. */
  internalError: 1011,
  /** The first frame was not a valid `Hello`, or its token or client id was refused. */
  unauthenticated: 4401,
  /** The page's `Origin` is not on the server's allow-list. */
  forbiddenOrigin: 4403,
  /** No `Hello` arrived within the server's deadline. */
  authTimeout: 4408,
  /** A newer connection of the same client id replaced this one. */
  replaced: 4409,
  /** A frame was larger than the server accepts. */
  frameTooLarge: 4413,
  /** The client sent frames faster than the server allows, or stopped reading. */
  rateLimited: 4429,
});

/**
 * Check one frame: a JSON text or an already parsed value. The answer names the field at
 * fault (`HookResponse.action: expected one of …`), never throws, and never trusts the size.
 *
 * @example
 * ```ts
 * const frame = parseWireFrame(socketData);
 * if (!frame.success) return socket.close(4400, frame.error.message);
 * if (frame.data.type === "HookResponse") hub.receive(frame.data);
 * ```
 */
export function parseWireFrame(input: unknown): ValidationResult<WireFrame> {
  let value = input;
  if (typeof input === "string") {
    if (input.length > MAX_FRAME_CHARS) {
      return fail(
        "LIMIT_EXCEEDED",
        `frame: ${input.length} characters, at most ${MAX_FRAME_CHARS}`,
      );
    }
    try {
      value = JSON.parse(input);
    } catch (error) {
      return fail("INVALID_OUTPUT", `frame: not JSON (${(error as Error).message})`);
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail("INVALID_OUTPUT", "frame: expected a JSON object with a type");
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !Object.hasOwn(wireSchemas, type)) {
    return fail(
      "INVALID_OUTPUT",
      `frame.type: unknown message type ${JSON.stringify(type ?? null)}`,
      ["type"],
    );
  }
  const id = validate(optionalFrameId, (value as { id?: unknown }).id, "INVALID_OUTPUT", ["id"]);
  if (!id.success) return id;
  const limited = withinJsonLimits(type as WireMessageType, value);
  if (!limited.success) return limited;
  value = limited.data;
  // HookEvents are most of what a client reads: the common ones skip the schema.
  const event = type === "HookEvent" ? quickHookEvent(value, true) : undefined;
  if (event !== undefined) {
    const frame = event as WireFrame;
    frame.type = "HookEvent";
    if (id.data !== undefined) frame.id = id.data;
    return { success: true, data: frame };
  }
  const schema = wireSchemas[type as WireMessageType] as z.ZodMiniType;
  const checked = validate(schema, value, "INVALID_OUTPUT", [type]);
  if (!checked.success) return checked;
  const frame = { ...(checked.data as object), type } as WireFrame;
  if (id.data !== undefined) frame.id = id.data;
  return { success: true, data: frame };
}

/** Check one message of a known type (what a gRPC transport decoded). */
export function parseWireMessage<K extends WireMessageType>(
  type: K,
  value: unknown,
): ValidationResult<WireMessageMap[K]> {
  if (type === "HookEvent") {
    const event = quickHookEvent(value);
    if (event !== undefined) return { success: true, data: event as WireMessageMap[K] };
  }
  const limited = withinJsonLimits(type, value);
  if (!limited.success) return limited;
  return validate(wireSchemas[type] as z.ZodMiniType, limited.data, "INVALID_OUTPUT", [
    type,
  ]) as ValidationResult<WireMessageMap[K]>;
}

/**
 * Refuses what a peer sent past the JSON limits: a field nested deeper than
 * {@link MAX_JSON_DEPTH}, or a HookResponse whose `modified` holds a `__proto__`,
 * `constructor` or `prototype` key (the schema's record would drop one at the top level
 * without a word). Checked before any schema walks the message. A HookResponse's `modified`
 * comes back as a plain-data copy, so what the schema checks is what the engine later applies.
 * HookEvents, the agent's own firings and the hot path of every client, are not walked.
 */
function withinJsonLimits(type: WireMessageType, value: unknown): ValidationResult<unknown> {
  if (type === "HookEvent" || value === null || typeof value !== "object") {
    return { success: true, data: value };
  }
  const deep = tooDeepField(value, [type]);
  if (deep !== undefined) return { success: false, error: deep };
  const modified = type === "HookResponse" ? (value as { modified?: unknown }).modified : undefined;
  if (modified === null || typeof modified !== "object") return { success: true, data: value };
  const copy = copyJsonData(modified, [type, "modified"]);
  return copy.success ? { success: true, data: { ...value, modified: copy.data } } : copy;
}

function fail(
  code: "INVALID_OUTPUT" | "LIMIT_EXCEEDED",
  message: string,
  path: (string | number)[] = [],
): { success: false; error: HookError } {
  return { success: false, error: new HookError(code, message, { path }) };
}
