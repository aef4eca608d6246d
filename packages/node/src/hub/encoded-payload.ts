import { HookError } from "@a3s-lab/hooks-core";

interface Encoded {
  readonly json: string;
  /** UTF-8 length of `json`; -1 until a transport first needs it. */
  bytes: number;
}

// Keyed on the payload object the hub hands every sink: one firing reaches many hooks and
// clients, and its JSON is the costly part of each message.
const cache = new WeakMap<object, Encoded>();

function encoded(payload: object): Encoded {
  let entry = cache.get(payload);
  if (!entry) {
    entry = { json: JSON.stringify(payload), bytes: -1 };
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
  return payloadJson(payload, eventId, maxBytes).json;
}

/**
 * {@link payloadText} with its UTF-8 length (also counted once per payload), for a transport
 * that writes the text straight into the message's bytes.
 */
export function payloadJson(
  payload: object,
  eventId: string,
  maxBytes: number,
): { readonly json: string; readonly bytes: number } {
  const entry = encoded(payload);
  if (entry.bytes < 0) entry.bytes = Buffer.byteLength(entry.json, "utf8");
  checkSize(entry, eventId, maxBytes);
  return entry;
}
