import { HookError } from "@a3s-lab/hooks-core";

interface Encoded {
  readonly json: string;
  /** UTF-8 length of `json`; -1 until a transport first needs it. */
  bytes: number;
  /** `json` as bytes, made the first time a gRPC stream sends it. */
  buffer: Buffer | undefined;
}

// Keyed on the payload object the hub hands every sink: one firing reaches many hooks and
// clients, and its JSON is the costly part of each message.
const cache = new WeakMap<object, Encoded>();

function encoded(payload: object): Encoded {
  let entry = cache.get(payload);
  if (!entry) {
    entry = { json: JSON.stringify(payload), bytes: -1, buffer: undefined };
    cache.set(payload, entry);
  }
  return entry;
}

function checkSize(entry: Encoded, eventId: string, maxBytes: number): void {
  if (entry.bytes > maxBytes) {
    throw new HookError(
      "LIMIT_EXCEEDED",
      `event ${eventId} is ${entry.bytes} bytes of JSON; the hook server sends at most ${maxBytes}`,
      { details: { limit: maxBytes } },
    );
  }
}

/**
 * A HookEvent payload's JSON text, encoded once per payload object however many hooks and
 * clients it goes to. Throws `LIMIT_EXCEEDED` when it is over `maxBytes`, so the transport
 * fails that hook instead of breaking the client's stream.
 */
export function payloadText(payload: object, eventId: string, maxBytes: number): string {
  const entry = encoded(payload);
  if (entry.bytes < 0) entry.bytes = Buffer.byteLength(entry.json, "utf8");
  checkSize(entry, eventId, maxBytes);
  return entry.json;
}

/** {@link payloadText} as UTF-8 bytes, for a protobuf `bytes` field; also made once. */
export function payloadBytes(payload: object, eventId: string, maxBytes: number): Buffer {
  const entry = encoded(payload);
  if (!entry.buffer) {
    entry.buffer = Buffer.from(entry.json, "utf8");
    entry.bytes = entry.buffer.length;
  }
  checkSize(entry, eventId, maxBytes);
  return entry.buffer;
}
