import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import type { ServiceDefinition } from "@grpc/grpc-js";

// hooks.proto's HookEvent, field by field: (number << 3) | wire type (0 varint, 2 length).
const HOOK_ID = 0x0a;
const EVENT_TYPE = 0x12;
const SESSION_ID = 0x1a;
const TIMESTAMP = 0x20;
const PAYLOAD = 0x2a;
const EVENT_ID = 0x32;
const DEADLINE_MS = 0x38;
const CANCEL = 0x40;
const CANCEL_REASON = 0x4a;

function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v >= 128; v = Math.floor(v / 128)) size++;
  return size;
}

function writeVarint(out: Buffer, at: number, value: number): number {
  let pos = at;
  let v = value;
  while (v >= 128) {
    out[pos++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  out[pos++] = v;
  return pos;
}

/** A varint the fast path can write: protobufjs writes negative and huge int64s its own way. */
const plainInteger = (value: number) => Number.isSafeInteger(value) && value >= 0;

/** The JSON text of a firing's payload and its UTF-8 length, as `payloadJson` gives them. */
export interface PayloadJson {
  readonly json: string;
  readonly bytes: number;
}

/**
 * A HookEvent as protobuf bytes, written straight into one buffer of the exact size (the
 * payload's JSON included, with no intermediate Buffer or message object). Fields are written
 * in field-number order when present, as protobufjs writes them, so the bytes are the ones
 * `@grpc/proto-loader` would produce. Returns undefined for a timestamp or deadline that is
 * not a non-negative safe integer (protobufjs has its own rules for those).
 */
export function encodeHookEvent(
  message: HookEventMessage,
  payload: PayloadJson | undefined,
): Buffer | undefined {
  const { hookId, eventType, sessionId, timestamp, eventId, deadlineMs, cancel, cancelReason } =
    message;
  if (!plainInteger(timestamp) || !plainInteger(deadlineMs)) return undefined;
  const hookIdBytes = Buffer.byteLength(hookId, "utf8");
  const eventTypeBytes = Buffer.byteLength(eventType, "utf8");
  const sessionIdBytes = Buffer.byteLength(sessionId, "utf8");
  const eventIdBytes = Buffer.byteLength(eventId, "utf8");
  const reasonBytes = cancelReason === undefined ? 0 : Buffer.byteLength(cancelReason, "utf8");
  let size =
    3 +
    hookIdBytes +
    varintSize(hookIdBytes) +
    eventTypeBytes +
    varintSize(eventTypeBytes) +
    sessionIdBytes +
    varintSize(sessionIdBytes) +
    1 +
    varintSize(timestamp) +
    1 +
    eventIdBytes +
    varintSize(eventIdBytes) +
    1 +
    varintSize(deadlineMs);
  if (payload !== undefined) size += 1 + varintSize(payload.bytes) + payload.bytes;
  if (cancel !== undefined) size += 2;
  if (cancelReason !== undefined) size += 1 + varintSize(reasonBytes) + reasonBytes;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  const text = (tag: number, value: string, bytes: number) => {
    out[pos++] = tag;
    pos = writeVarint(out, pos, bytes);
    pos += out.write(value, pos, bytes, "utf8");
  };
  text(HOOK_ID, hookId, hookIdBytes);
  text(EVENT_TYPE, eventType, eventTypeBytes);
  text(SESSION_ID, sessionId, sessionIdBytes);
  out[pos++] = TIMESTAMP;
  pos = writeVarint(out, pos, timestamp);
  if (payload !== undefined) text(PAYLOAD, payload.json, payload.bytes);
  text(EVENT_ID, eventId, eventIdBytes);
  out[pos++] = DEADLINE_MS;
  pos = writeVarint(out, pos, deadlineMs);
  if (cancel !== undefined) {
    out[pos++] = CANCEL;
    out[pos++] = cancel ? 1 : 0;
  }
  if (cancelReason !== undefined) text(CANCEL_REASON, cancelReason, reasonBytes);
  return out;
}

/**
 * The hook service with HookStream's outbound serializer taking bytes made by
 * {@link encodeHookEvent} as they are (anything else still goes through proto-loader's).
 */
export function withEncodedHookEvents(service: ServiceDefinition): ServiceDefinition {
  const stream = service.HookStream;
  if (!stream) return service;
  const serialize = stream.responseSerialize;
  return {
    ...service,
    HookStream: {
      ...stream,
      responseSerialize: (value: unknown) =>
        Buffer.isBuffer(value) ? value : serialize(value as never),
    },
  };
}
