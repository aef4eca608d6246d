import {
  ServerInterceptingCall,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  type StatusObject,
} from "@grpc/grpc-js";
import type { Authenticator } from "../hub/authenticator.js";
import { authenticateCall } from "./grpc-hook-service.js";
import { toStatus } from "./grpc-status.js";

/** Where a gRPC call came from, as grpc-js reports it. */
export interface CallPeer {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localPort?: number | undefined;
}

/**
 * Checks every call's token on its headers, before grpc-js reads a byte of its body: a caller
 * without a valid token gets `UNAUTHENTICATED` at once, and the message it is sending (up to
 * `maxMessageBytes`) is never buffered. The handlers still authenticate for themselves (they
 * need the client id); this is the gate in front of them. `onAuthenticated` hears of each
 * call that passed, with the connection it came on.
 */
export function authInterceptor(
  authenticate: Authenticator,
  onAuthenticated?: (peer: CallPeer) => void,
): ServerInterceptor {
  return (_method, call: ServerInterceptingCallInterface) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, accept) => {
            try {
              authenticateCall(authenticate, metadata);
            } catch (error) {
              call.sendStatus(toStatus(error) as StatusObject);
              return;
            }
            onAuthenticated?.(call.getConnectionInfo());
            accept(metadata);
          },
        }),
    });
}
