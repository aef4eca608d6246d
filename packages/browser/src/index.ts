/**
 * @a3s-lab/hooks-browser: the WebSocket transport of A3S hooks, for web pages (and for Node
 * processes that prefer a WebSocket to gRPC), and audit helpers that keep, show and log what a
 * page's hooks did. No Node built-ins: it bundles for browsers.
 */

// ── For hosts: what a page's hooks did, kept, shown and logged ─────────────────
// They live in core, which every runtime has; kept here for code that imported them from this package.
export type { AuditConsole, AuditTrailOptions, LogAuditOptions } from "@a3s-lab/hooks-core";
export { AuditTrail, formatAuditRecord, logAudit } from "@a3s-lab/hooks-core";

// ── For transports: the WebSocket transport, its close codes, its URL rules ──────
export { closeError } from "./close-error.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { WebSocketTransportOptions } from "./websocket-transport.js";
export { createWebSocketTransport } from "./websocket-transport.js";
export { webSocketUrl } from "./websocket-url.js";
