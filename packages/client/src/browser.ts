/**
 * @a3s-lab/box for browsers (export condition `browser`): `A3sClient` on the native
 * `WebSocket` of `@a3s-lab/hooks-browser`, addressing the host that served the page unless told
 * otherwise. This entry must never import `@a3s-lab/hooks-node`.
 */
import { createWebSocketTransport } from "@a3s-lab/hooks-browser";
import { A3sClientBase } from "./a3s-client.js";
import type { A3sClientOptions, ClientPlatform } from "./types.js";

/** The page's own `host:port`, when it came from an http(s) server (the agent's, usually). */
function pageHost(): string | undefined {
  const location = (globalThis as { location?: { protocol?: unknown; host?: unknown } }).location;
  return typeof location?.host === "string" &&
    location.host !== "" &&
    (location.protocol === "http:" || location.protocol === "https:")
    ? location.host
    : undefined;
}

const browser: ClientPlatform = {
  // A page has no environment; the agent that served it is the natural default.
  env: (name) => (name === "A3S_ADDRESS" ? pageHost() : undefined),
  defaultTransport: createWebSocketTransport,
};

/**
 * Register hooks with an A3S agent from a web page; they run in the page. The token comes
 * from the page (typed by the user, or handed over by the host), never from the bundle.
 *
 * @example
 * ```ts
 * import { A3sClient } from "@a3s-lab/box";
 *
 * const client = new A3sClient({ token }); // the agent that served this page
 * client.registerHook("PermissionRequest", async (event) =>
 *   confirm(`Allow ${event.tool}?`) ? { action: "continue", permission: "allow" } : { action: "block", reason: "denied in the browser" },
 * );
 * ```
 */
export class A3sClient extends A3sClientBase {
  constructor(options: A3sClientOptions = {}) {
    super(options, browser);
  }
}

export { createWebSocketTransport } from "@a3s-lab/hooks-browser";
// One curated list for both entries, so they cannot drift apart.
export * from "./common-exports.js";
