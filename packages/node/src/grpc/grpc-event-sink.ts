import { HookError } from "@a3s-lab/hooks-core";
import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import type { ServerDuplexStream } from "@grpc/grpc-js";
import { payloadBytes } from "../hub/encoded-payload.js";
import { checkBacklog, type OutboundOptions } from "../hub/outbound-backlog.js";
import type { HookEventSink } from "../hub/remote-client.js";
import { toProto } from "./wire-codec.js";

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
