import { HookError, type HookEventMessage, WS_CLOSE_CODES } from "@a3s-lab/hooks-core";
import type { WebSocket } from "ws";
import { payloadText } from "./encoded-payload.js";
import type { HookEventSink } from "./remote-client.js";

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
 * `maxBytes` fails that hook with `LIMIT_EXCEEDED` and leaves the socket up; a client that
 * stops reading (more than two full-size frames waiting) is closed with 4429.
 */
export function webSocketEventSink(
  socket: WebSocket,
  maxBytes: number,
  owner: SinkOwner,
): HookEventSink {
  return {
    send: (message: HookEventMessage) => {
      if (!owner.isOpen() || socket.readyState !== socket.OPEN)
        throw new HookError("UNAVAILABLE", "the stream has ended");
      if (socket.bufferedAmount > 2 * maxBytes) {
        const error = new HookError(
          "LIMIT_EXCEEDED",
          `the client is not reading: ${socket.bufferedAmount} bytes wait to be sent`,
        );
        owner.close(error, WS_CLOSE_CODES.rateLimited);
        throw new HookError("UNAVAILABLE", error.message);
      }
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
