import { HookError } from "@a3s-lab/hooks-core";

/**
 * The rule both hook stream sinks (gRPC and WebSocket) hold a client to: once more than
 * `maxBytes` of firings wait to be sent to it, it has stopped reading. `overflow` then ends
 * its stream at once (so the hub answers its waiting and new firings with their hooks' fail
 * behaviour, and what was queued for it can go), and this send fails with `UNAVAILABLE`.
 */
export function checkBacklog(
  waitingBytes: number,
  maxBytes: number,
  overflow: (error: HookError) => void,
): void {
  if (waitingBytes <= maxBytes) return;
  const error = new HookError(
    "LIMIT_EXCEEDED",
    `the client is not reading: ${waitingBytes} bytes wait to be sent to it, more than the ${maxBytes} it may have waiting`,
    { details: { limit: maxBytes } },
  );
  overflow(error);
  throw new HookError("UNAVAILABLE", error.message, { cause: error });
}

/** What a transport's hook streams send at most, and how one that stopped reading is cut off. */
export interface OutboundOptions {
  /** Largest event sent; a larger one fails its hook with `LIMIT_EXCEEDED`. */
  maxMessageBytes: number;
  /** Bytes of firings waiting to be sent to one client before it counts as not reading. */
  maxQueuedBytes: number;
  /**
   * Close the connection of a client that stopped reading (`peer` as `call.getPeer()` gives
   * it): a status it would read only after everything queued before it could not tell it.
   */
  dropConnection?: (peer: string) => void;
}
