import { createHash, timingSafeEqual } from "node:crypto";
import { HookError } from "@a3s-lab/hooks-core";
import { isWireId } from "@a3s-lab/hooks-core/wire";

/** What a call presents, whatever the transport: the `authorization` value and the client id. */
export interface Credentials {
  /** The raw `authorization` value (`Bearer <token>`), or the bare token of a message transport. */
  authorization: string | undefined;
  /** The client id the caller claims (`x-a3s-client-id`): 1 to 100 of A-Z a-z 0-9 . _ - */
  clientId: string | undefined;
}

/** Checks credentials; returns the caller's client id or throws `UNAUTHENTICATED`. */
export type Authenticator = (credentials: Credentials) => string;

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * True when a presented secret is the expected one, in constant time: compared as SHA-256
 * digests, so neither the content nor the length of the expected secret leaks through timing.
 */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Build the check every call goes through. Tokens are compared in constant time (over
 * SHA-256 digests, so even the length does not leak); with `token` undefined every caller is
 * accepted, which the server allows only when the host said `insecure: true`.
 *
 * @example
 * ```ts
 * const authenticate = createAuthenticator("s3cret");
 * authenticate({ authorization: "Bearer s3cret", clientId: "ide-1" }); // "ide-1"
 * ```
 */
export function createAuthenticator(token: string | undefined): Authenticator {
  const expected = token === undefined ? undefined : digest(token);
  return ({ authorization, clientId }) => {
    if (expected !== undefined) {
      if (authorization === undefined || authorization === "") {
        throw new HookError("UNAUTHENTICATED", "authorization: a Bearer token is required", {
          path: ["authorization"],
        });
      }
      const match = /^\s*bearer\s+(.+?)\s*$/i.exec(authorization);
      const presented = match ? match[1]! : authorization;
      if (!timingSafeEqual(digest(presented), expected)) {
        throw new HookError("UNAUTHENTICATED", "authorization: the token is not valid", {
          path: ["authorization"],
        });
      }
    }
    if (!isWireId(clientId)) {
      throw new HookError(
        "UNAUTHENTICATED",
        clientId === undefined || clientId === ""
          ? "x-a3s-client-id: a client id is required"
          : "x-a3s-client-id: expected 1 to 100 of A-Z a-z 0-9 . _ -",
        { path: ["x-a3s-client-id"] },
      );
    }
    return clientId;
  };
}
