import { HookError } from "@a3s-lab/hooks-core";
import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import type { ServerDuplexStream } from "@grpc/grpc-js";
import { payloadJson } from "../hub/encoded-payload.js";
import { checkBacklog, type OutboundOptions } from "../hub/outbound-backlog.js";
import type { HookEventSink } from "../hub/remote-client.js";
import { encodeHookEvent, type PayloadJson } from "./hook-event-encoder.js";
import { loadHooksProto } from "./hooks-proto.js";
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

/** A HookEvent the fast encoder leaves to protobufjs (a negative or huge timestamp). */
function slowFrame(message: HookEventMessage, payload: PayloadJson | undefined): Buffer {
  const stream = loadHooksProto().HookService.HookStream;
  if (!stream) throw new HookError("INTERNAL", "hooks.proto: HookService.HookStream not found");
  const bytes = payload && Buffer.from(payload.json, "utf8");
  return stream.responseSerialize(toProto("HookEvent", { ...message, payload: bytes as never }));
}

/**
 * How the hub reaches one gRPC HookStream: HookEvent messages out (each event's JSON encoded
 * once, however many hooks and clients it goes to, and written with the other fields straight
 * into the message's bytes). An event over `maxMessageBytes` fails
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
          : payloadJson(message.payload, message.eventId, limits.maxMessageBytes);
      // The service's HookStream serializer passes these bytes through (see
      // withEncodedHookEvents).
      const frame = encodeHookEvent(message, payload) ?? slowFrame(message, payload);
      const bytes = frame.length;
      waiting += bytes;
      call.write(frame, () => {
        waiting -= bytes;
      });
    },
    close: (error) => owner.close(error),
  };
}
