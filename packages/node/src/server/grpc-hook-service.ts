import {
  HookError,
  type HookEventMessage,
  WIRE_HEADERS,
  type WireMessageMap,
  type WireMessageType,
} from "@a3s-lab/hooks-core";
import {
  Metadata,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServiceError,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { toStatus } from "../grpc/grpc-status.js";
import { convertFromProto, toProto } from "../grpc/wire-codec.js";
import type { Authenticator } from "./authenticator.js";
import { payloadBytes } from "./encoded-payload.js";
import type { HookHub } from "./hook-hub.js";
import type { HookEventSink } from "./remote-client.js";

/** The caller's client id, or a thrown `UNAUTHENTICATED`. */
export function authenticateCall(authenticate: Authenticator, metadata: Metadata): string {
  const first = (name: string) => {
    const value = metadata.get(name)[0];
    return typeof value === "string" ? value : undefined;
  };
  return authenticate({
    authorization: first(WIRE_HEADERS.authorization),
    clientId: first(WIRE_HEADERS.clientId),
  });
}

/** A unary handler: authenticate, convert, run, convert back; any HookError becomes a status. */
export function unaryHandler<Out extends WireMessageType>(
  authenticate: Authenticator,
  requestType: WireMessageType,
  responseType: Out,
  run: (clientId: string, request: unknown, call: ServerUnaryCall<unknown, unknown>) => unknown,
) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    Promise.resolve()
      .then(() => {
        const clientId = authenticateCall(authenticate, call.metadata);
        return run(clientId, convertFromProto(requestType, call.request), call);
      })
      .then(
        (response) => callback(null, toProto(responseType, response as WireMessageMap[Out])),
        (error: unknown) => callback(toStatus(error) as ServiceError),
      );
  };
}

/**
 * HookService over gRPC: each call authenticated, then handed to the hub as wire messages.
 * `maxMessageBytes` bounds the events sent to clients (a larger event fails that hook with
 * `LIMIT_EXCEEDED` instead of breaking the client's stream).
 */
export function grpcHookService(
  hub: HookHub,
  authenticate: Authenticator,
  maxMessageBytes: number,
): UntypedServiceImplementation {
  return {
    RegisterHook: unaryHandler(
      authenticate,
      "RegisterHookRequest",
      "RegisterHookResponse",
      (clientId, request) => hub.register(clientId, request),
    ),
    UnregisterHook: unaryHandler(
      authenticate,
      "UnregisterHookRequest",
      "UnregisterHookResponse",
      (clientId, request) => hub.unregister(clientId, request),
    ),
    ListHooks: unaryHandler(
      authenticate,
      "ListHooksRequest",
      "ListHooksResponse",
      (clientId, request) => hub.list(clientId, request),
    ),
    HookStream: (call: ServerDuplexStream<unknown, unknown>) => {
      let ended = false;
      const end = (error: HookError) => {
        if (ended) return;
        ended = true;
        call.emit("error", toStatus(error));
      };
      let attached: ReturnType<HookHub["attach"]>;
      const sink: HookEventSink = {
        send(message: HookEventMessage) {
          if (ended || call.cancelled) throw new HookError("UNAVAILABLE", "the stream has ended");
          const payload =
            message.payload === undefined
              ? undefined
              : payloadBytes(message.payload, message.eventId, maxMessageBytes);
          call.write(toProto("HookEvent", { ...message, payload: payload as never }));
        },
        close: end,
      };
      try {
        const clientId = authenticateCall(authenticate, call.metadata);
        attached = hub.attach(clientId, sink);
      } catch (error) {
        end(HookError.from(error));
        return;
      }
      const metadata = new Metadata();
      metadata.set(WIRE_HEADERS.resumed, String(attached.resumed));
      call.sendMetadata(metadata);
      call.on("data", (message: unknown) => {
        try {
          attached.receive(convertFromProto("HookResponse", message));
        } catch (error) {
          attached.receive(message, HookError.from(error, "INVALID_OUTPUT"));
        }
      });
      call.on("end", () => {
        attached.detach("the client closed its stream");
        if (!ended) {
          ended = true;
          call.end();
        }
      });
      call.on("cancelled", () => attached.detach("the connection was lost or cancelled"));
      call.on("close", () => attached.detach("the stream closed"));
      call.on("error", () => attached.detach("the stream failed"));
    },
  };
}
