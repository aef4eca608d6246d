import type { IncomingMessage } from "node:http";
import { HookError } from "@a3s-lab/hooks-core";
import { bracketed } from "../hub/connection-front.js";

/** Decides whether a WebSocket upgrade's `Origin` may connect. */
export type OriginCheck = (request: IncomingMessage) => boolean;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

/** An origin as browsers send it: scheme, host and port, lower case, no path. */
export function normalizeOrigin(origin: string): string {
  if (origin === "null") return origin;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new HookError(
      "INVALID_CONFIG",
      `allowedOrigins: ${JSON.stringify(origin)} is not an origin`,
      {
        path: ["options", "webSocket", "allowedOrigins"],
      },
    );
  }
  if (url.origin === "null" || url.pathname !== "/" || url.search || url.hash || url.username) {
    throw new HookError(
      "INVALID_CONFIG",
      `allowedOrigins: ${JSON.stringify(origin)} is not an origin; expected scheme://host[:port]`,
      { path: ["options", "webSocket", "allowedOrigins"] },
    );
  }
  return url.origin;
}

/**
 * The Origin check of the WebSocket endpoint: a browser always sends `Origin` on a WebSocket
 * upgrade, so checking it is what stops a page on another site from reaching the agent
 * through the user's browser (cross-site WebSocket hijacking). A request without `Origin`
 * comes from a program, not a page, and still has to present the token.
 *
 * Default (`allowed` undefined): the pages the host itself serves: `http://<host>:<port>`
 * for each served port, with the loopback names as aliases when bound to loopback. A host
 * bound to every interface cannot know its public names, so there the page's origin must
 * name the host the request was sent to (its `Host` header).
 */
export function originCheck(
  allowed: readonly string[] | "*" | undefined,
  host: string,
  ports: readonly number[],
): OriginCheck {
  if (allowed === "*") return () => true;
  const hostOnly = host.replace(/^\[|\]$/g, "");
  const list = new Set<string>();
  if (allowed !== undefined) for (const origin of allowed) list.add(normalizeOrigin(origin));
  else if (!WILDCARD.has(hostOnly)) {
    const names =
      LOOPBACK.has(hostOnly) || hostOnly.startsWith("127.")
        ? [hostOnly, "127.0.0.1", "localhost", "::1"]
        : [hostOnly];
    for (const name of names)
      for (const port of ports) list.add(normalizeOrigin(`http://${bracketed(name)}:${port}`));
  }
  const sameHost = allowed === undefined && WILDCARD.has(hostOnly);
  return (request) => {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    let normalized: string;
    try {
      normalized = normalizeOrigin(origin);
    } catch {
      return false;
    }
    if (list.has(normalized)) return true;
    if (!sameHost || !request.headers.host) return false;
    const served = new URL(normalized);
    return (
      served.protocol === "http:" &&
      served.host === request.headers.host.toLowerCase() &&
      ports.includes(Number(served.port || 80))
    );
  };
}
