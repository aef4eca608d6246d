import { HookError, type HookEventMessage } from "@a3s-lab/hooks-core";
import type { ServerDuplexStream } from "@grpc/grpc-js";
import { payloadBytes } from "../hub/encoded-payload.js";
import { checkBacklog } from "../hub/outbound-backlog.js";
import type { HookEventSink } from "../hub/remote-client.js";
import { toProto } from "./wire-codec.js";

/** What the gRPC hook streams send at most, and how one that stopped reading is cut off. */
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

/** What the sink needs of the HookStream call that owns it. */
export interface GrpcSinkOwner {
  /** False once the stream is ending. */
  isOpen(): boolean;
  /** End the stream with this status. */
  close(error: HookError): void;
  /** The client stopped reading: end its stream and drop what is queued for it. */
  overflow(error: HookError): void;
}

/** A HookEvent's fields besides the payload, in protobuf: a bound, not a measure. */
const FIELD_BYTES = 512;

/**
 * How the hub reaches one gRPC HookStream: HookEvent messages out (each event's JSON encoded
 * once, however many hooks and clients it goes to). An event over `maxMessageBytes` fails
 * that hook and leaves the stream up; a client with more than `maxQueuedBytes` waiting (a
 * write completes once HTTP/2 flow control let it out) is ended as not reading.
 */
export function grpcEventSink(
  call: ServerDuplexStream<unknown, unknown>,
  limits: OutboundOptions,
  owner: GrpcSinkOwner,
): HookEventSink {
  let waiting = 0;
  return {
    send(message: HookEventMessage) {
      if (!owner.isOpen() || call.cancelled)
        throw new HookError("UNAVAILABLE", "the stream has ended");
      checkBacklog(waiting, limits.maxQueuedBytes, owner.overflow);
      const payload =
        message.payload === undefined
          ? undefined
          : payloadBytes(message.payload, message.eventId, limits.maxMessageBytes);
      const bytes = (payload?.length ?? 0) + FIELD_BYTES;
      waiting += bytes;
      call.write(toProto("HookEvent", { ...message, payload: payload as never }), () => {
        waiting -= bytes;
      });
    },
    close: (error) => owner.close(error),
  };
}
