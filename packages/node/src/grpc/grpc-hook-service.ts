import { HookError, type Timers } from "@a3s-lab/hooks-core";
import { WIRE_HEADERS, type WireMessageMap, type WireMessageType } from "@a3s-lab/hooks-core/wire";
import {
  Metadata,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServiceError,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { Authenticator } from "../hub/authenticator.js";
import type { ClientCredentials, HookHub } from "../hub/hook-hub.js";
import type { OutboundOptions } from "../hub/outbound-backlog.js";
import { type RateLimit, RateLimiter } from "../hub/rate-limiter.js";
import { grpcEventSink } from "./grpc-event-sink.js";
import { toStatus } from "./grpc-status.js";
import { convertFromProto, toProto } from "./wire-codec.js";

function firstValue(metadata: Metadata, name: string): string | undefined {
  const value = metadata.get(name)[0];
  return typeof value === "string" ? value : undefined;
}

/** The caller's client id, or a thrown `UNAUTHENTICATED`. */
export function authenticateCall(authenticate: Authenticator, metadata: Metadata): string {
  return authenticate({
    authorization: firstValue(metadata, WIRE_HEADERS.authorization),
    clientId: firstValue(metadata, WIRE_HEADERS.clientId),
  });
}

/** The caller's client id and the resume secret it presented, or a thrown `UNAUTHENTICATED`. */
export function callerOf(authenticate: Authenticator, metadata: Metadata): ClientCredentials {
  return {
    clientId: authenticateCall(authenticate, metadata),
    clientSecret: firstValue(metadata, WIRE_HEADERS.clientSecret),
  };
}

/** A unary handler: authenticate, convert, run, convert back; any HookError becomes a status. */
export function unaryHandler<Out extends WireMessageType>(
  authenticate: Authenticator,
  requestType: WireMessageType,
  responseType: Out,
  run: (
    caller: ClientCredentials,
    request: unknown,
    call: ServerUnaryCall<unknown, unknown>,
  ) => unknown,
) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    Promise.resolve()
      .then(() => {
        const caller = callerOf(authenticate, call.metadata);
        return run(caller, convertFromProto(requestType, call.request), call);
      })
      .then(
        (response) => callback(null, toProto(responseType, response as WireMessageMap[Out])),
        (error: unknown) => callback(toStatus(error) as ServiceError),
      );
  };
}

/**
 * HookService over gRPC: each call authenticated, then handed to the hub as wire messages.
 * `outbound.maxMessageBytes` bounds the events sent to clients (a larger event fails that hook
 * with `LIMIT_EXCEEDED` instead of breaking the client's stream); a client with more than
 * `outbound.maxQueuedBytes` waiting to be sent has stopped reading, and is cut off.
 * `unmatchedAnswerRate` bounds, per stream, the answers that match no waiting firing (late,
 * unknown, already answered or unreadable: each one costs the hub a warning); past it the
 * stream ends with `RESOURCE_EXHAUSTED`, as a WebSocket is closed with 4429. Answers to
 * waiting firings are not counted: the firings bound them. The limit refills on `timers`, the
 * server's clock.
 */
export function grpcHookService(
  hub: HookHub,
  authenticate: Authenticator,
  outbound: OutboundOptions,
  timers: Pick<Timers, "now">,
  unmatchedAnswerRate: RateLimit = { burst: 1000, perSecond: 500 },
): UntypedServiceImplementation {
  return {
    RegisterHook: unaryHandler(
      authenticate,
      "RegisterHookRequest",
      "RegisterHookResponse",
      (caller, request) => hub.register(caller, request),
    ),
    UnregisterHook: unaryHandler(
      authenticate,
      "UnregisterHookRequest",
      "UnregisterHookResponse",
      (caller, request) => hub.unregister(caller, request),
    ),
    ListHooks: unaryHandler(
      authenticate,
      "ListHooksRequest",
      "ListHooksResponse",
      (caller, request) => hub.list(caller, request),
    ),
    HookStream: (call: ServerDuplexStream<unknown, unknown>) => {
      let ended = false;
      const end = (error: HookError) => {
        if (ended) return;
        ended = true;
        call.emit("error", toStatus(error));
      };
      let attached: ReturnType<HookHub["attach"]>;
      const sink = grpcEventSink(call, outbound, {
        isOpen: () => !ended,
        close: end,
        overflow: (error) => {
          attached.detach(error.message);
          end(error);
          // Drops the firings queued for it, which nothing would ever send.
          call.destroy();
          outbound.dropConnection?.(call.getPeer());
        },
      });
      try {
        attached = hub.attach(callerOf(authenticate, call.metadata), sink);
      } catch (error) {
        end(HookError.from(error));
        return;
      }
      const metadata = new Metadata();
      metadata.set(WIRE_HEADERS.resumed, String(attached.resumed));
      metadata.set(WIRE_HEADERS.clientSecret, attached.clientSecret);
      call.sendMetadata(metadata);
      const unmatched = new RateLimiter(unmatchedAnswerRate, timers);
      call.on("data", (message: unknown) => {
        if (ended) return;
        let answered: boolean;
        try {
          answered = attached.receive(convertFromProto("HookResponse", message));
        } catch (error) {
          answered = attached.receive(message, HookError.from(error, "INVALID_OUTPUT"));
        }
        if (answered || unmatched.take() === 0) return;
        const { burst, perSecond } = unmatchedAnswerRate;
        const error = new HookError(
          "LIMIT_EXCEEDED",
          `HookResponse: at most ${burst} answers at once and ${perSecond} per second that match no waiting firing (late, unknown or already answered)`,
        );
        end(error);
        attached.detach(error.message);
      });
      call.on("end", () => {
        attached.detach("the client closed its stream");
        if (!ended) {
          ended = true;
          call.end();
        }
      });
      // grpc-js also ends a call this way when it refuses a message over the limit itself, unread
      // (so its firing is unknown): the reason names that case too.
      call.on("cancelled", () =>
        attached.detach(
          `the connection was lost or cancelled, or the client sent a message over the ${outbound.maxMessageBytes}-byte limit`,
        ),
      );
      call.on("close", () => attached.detach("the stream closed"));
      call.on("error", () => attached.detach("the stream failed"));
    },
  };
}
