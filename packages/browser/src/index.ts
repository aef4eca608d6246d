/**
 * @a3s-lab/hooks-browser: the WebSocket transport of A3S hooks, for web pages (and for Node
 * processes that prefer a WebSocket to gRPC). No Node built-ins: it bundles for browsers.
 */

// ── For other libraries: the endpoint's close codes and URL rules ─────────────
export { closeError, WS_CLOSE_CODES } from "./close-codes.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
// ── For SDK users ──────────────────────────────────────────────────────────────
export type { WebSocketTransportOptions } from "./websocket-transport.js";
export { createWebSocketTransport } from "./websocket-transport.js";
export { webSocketUrl } from "./websocket-url.js";
