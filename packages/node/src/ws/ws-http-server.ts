import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { WebSocketEndpoint } from "./ws-endpoint.js";

/** Answers the plain HTTP requests that reach the hook server's port (pages, assets). */
export type HttpHandler = (request: IncomingMessage, response: ServerResponse) => void;

function notFound(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
  response.end("Not found. This port serves A3S hooks over gRPC and WebSocket.\n");
}

/**
 * The HTTP/1.1 side of the hook server's port: WebSocket upgrades go to the endpoint, other
 * requests to the host's handler (404 without one). It never listens itself: the
 * connection front hands it the sockets that are not gRPC.
 */
export function createWebSocketHttpServer(
  endpoint: () => WebSocketEndpoint | undefined,
  handler: HttpHandler = notFound,
): Server {
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    try {
      handler(req, res);
    } catch {
      // A broken page handler must not take the hook server down with it.
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error.\n");
    }
  });
  server.on("upgrade", (req, socket, head) => {
    const ws = endpoint();
    if (ws) ws.handleUpgrade(req, socket, head);
    else socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });
  // Malformed HTTP from a stranger: answer 400 and drop it, quietly.
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  return server;
}
