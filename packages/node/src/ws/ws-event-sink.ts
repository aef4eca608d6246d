import { HookError } from "@a3s-lab/hooks-core";
import { type HookEventMessage, WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import type { WebSocket } from "ws";
import { payloadText } from "../hub/encoded-payload.js";
import { checkBacklog, type OutboundOptions } from "../hub/outbound-backlog.js";
import type { HookEventSink } from "../hub/remote-client.js";

/** What the sink needs of the connection that owns the socket. */
export interface SinkOwner {
  /** False once the connection is closing. */
  isOpen(): boolean;
  /** Close the connection: an `Error` frame, then `code`. */
  close(error: HookError, code?: number): void;
}

/**
 * How the hub reaches one WebSocket: HookEvent frames out (each event's JSON encoded once,
 * however many hooks and clients it goes to), and the end of the stream. An event over
 * `maxMessageBytes` fails that hook with `LIMIT_EXCEEDED` and leaves the socket up; a client
 * with more than `maxQueuedBytes` waiting (it stopped reading) is closed with 4429 and cut off
 * at once, as its gRPC twin is.
 */
export function webSocketEventSink(
  socket: WebSocket,
  limits: Pick<OutboundOptions, "maxMessageBytes" | "maxQueuedBytes">,
  owner: SinkOwner,
): HookEventSink {
  const maxBytes = limits.maxMessageBytes;
  const overflow = (error: HookError) => {
    owner.close(error, WS_CLOSE_CODES.rateLimited);
    // It reads nothing, so it would never see the close frame: waiting for its answer
    // would keep its firings waiting and its queue held for the close timeout.
    socket.terminate();
  };
  return {
    send: (message: HookEventMessage) => {
      if (!owner.isOpen() || socket.readyState !== socket.OPEN)
        throw new HookError("UNAVAILABLE", "the stream has ended");
      checkBacklog(socket.bufferedAmount, limits.maxQueuedBytes, overflow);
      const { payload, ...fields } = message;
      const head = JSON.stringify({ type: "HookEvent", ...fields });
      if (payload === undefined) {
        socket.send(head);
        return;
      }
      const json = payloadText(payload, message.eventId, maxBytes);
      socket.send(`${head.slice(0, -1)},"payload":${json}}`);
    },
    close: (error) => owner.close(error),
  };
}
