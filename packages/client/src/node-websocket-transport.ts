import {
  createWebSocketTransport as createTransport,
  type WebSocketTransportOptions,
} from "@a3s-lab/hooks-browser";
import type { Transport } from "@a3s-lab/hooks-core/wire";
import { WebSocket } from "ws";

/**
 * The WebSocket transport in Node, on the `ws` package (Node 20 has no global `WebSocket`).
 * gRPC is the default in Node; pick this one where only HTTP/1.1 gets through (a proxy that
 * speaks no HTTP/2), or to talk to the agent exactly as its browser pages do. In browsers,
 * `@a3s-lab/box` exports the same name on the native `WebSocket`, and uses it by default.
 *
 * @example
 * ```ts
 * import { A3sClient, createWebSocketTransport } from "@a3s-lab/box";
 *
 * const client = new A3sClient({ transport: createWebSocketTransport });
 * ```
 */
export function createWebSocketTransport(options: WebSocketTransportOptions): Transport {
  return createTransport({ WebSocket, ...options });
}
