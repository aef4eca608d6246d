import * as z from "zod/mini";
import { HookError } from "./hook-error.js";
import { type ValidationResult, validate } from "./validation.js";
import { type WireMessageMap, type WireMessageType, wireSchemas } from "./wire.js";

/**
 * A message as a frame on a message transport: the message's fields plus its `type`, and an
 * optional `id` that pairs a request with its answer when calls share one connection.
 */
export type WireFrame = {
  [K in WireMessageType]: WireMessageMap[K] & { type: K; id?: string };
}[WireMessageType];

/** Largest frame {@link parseWireFrame} accepts, in characters of JSON (4 MiB). */
export const MAX_FRAME_CHARS = 4 * 1024 * 1024;

const frameIdSchema = z.optional(z.string().check(z.maxLength(128)));

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
  const id = validate(frameIdSchema, (value as { id?: unknown }).id, "INVALID_OUTPUT", ["id"]);
  if (!id.success) return id;
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
  return validate(wireSchemas[type] as z.ZodMiniType, value, "INVALID_OUTPUT", [
    type,
  ]) as ValidationResult<WireMessageMap[K]>;
}

function fail(
  code: "INVALID_OUTPUT" | "LIMIT_EXCEEDED",
  message: string,
  path: (string | number)[] = [],
): { success: false; error: HookError } {
  return { success: false, error: new HookError(code, message, { path }) };
}
