import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { HookError } from "@a3s-lab/hooks-core";
import { PROTOCOL, WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import { type WebSocket, WebSocketServer } from "ws";
import { WsConnection, type WsConnectionDeps } from "./ws-connection.js";
import type { OriginCheck } from "./ws-origin.js";

/** What a {@link WebSocketEndpoint} shares with its sockets, plus its Origin check. */
export interface WebSocketEndpointOptions extends WsConnectionDeps {
  /** Whether a page's `Origin` may connect. */
  originAllowed: OriginCheck;
  /** Ping every socket this often; one that has not answered the last ping is dropped. */
  keepaliveMs?: number;
  /**
   * Bytes a socket may send before its Hello is accepted; past it, it is closed (4413).
   * Bounds what strangers make the server buffer, whatever `maxMessageBytes` allows later.
   */
  maxHelloBytes: number;
  /** Told of every upgraded connection: its Hello deadline is this endpoint's now. */
  upgraded?: (socket: Duplex) => void;
  /** Told of every connection whose Hello was accepted. */
  authenticated?: (socket: Duplex) => void;
}

/**
 * The WebSocket side of the hook server: takes HTTP upgrade requests, refuses pages from
 * origins that are not allowed (close 4403, before any frame is read), and runs a
 * {@link WsConnection} per socket. Pings keep a vanished client from holding its hooks as
 * if it were connected, as gRPC's keepalive does.
 *
 * @example
 * ```ts
 * const endpoint = new WebSocketEndpoint({ hub, authenticate, originAllowed, ...limits });
 * httpServer.on("upgrade", (req, socket, head) => endpoint.handleUpgrade(req, socket, head));
 * ```
 */
export class WebSocketEndpoint {
  readonly #server: WebSocketServer;
  readonly #options: WebSocketEndpointOptions;
  readonly #connections = new Map<WebSocket, WsConnection>();
  readonly #alive = new WeakSet<WebSocket>();
  readonly #keepalive: ReturnType<typeof setInterval>;

  constructor(options: WebSocketEndpointOptions) {
    this.#options = options;
    this.#server = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes,
      // Compression buys little for small JSON frames and costs memory per socket.
      perMessageDeflate: false,
      handleProtocols: (offered) => (offered.has(PROTOCOL) ? PROTOCOL : false),
    });
    this.#keepalive = setInterval(() => this.#ping(), options.keepaliveMs ?? 10_000);
    this.#keepalive.unref();
  }

  /** Sockets open now. */
  get size(): number {
    return this.#connections.size;
  }

  /** Take one HTTP upgrade request. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#options.closing.aborted) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n");
      return;
    }
    this.#server.handleUpgrade(request, socket, head, (ws) => {
      if (!this.#options.originAllowed(request)) {
        // Accept, then close at once: the page sees a clear code instead of a bare failure,
        // and not one frame of its is read.
        // Printable ASCII only: a close reason must fit in 123 bytes.
        const origin = String(request.headers.origin)
          .replace(/[^\x20-\x7e]/g, "?")
          .slice(0, 80);
        ws.close(WS_CLOSE_CODES.forbiddenOrigin, `origin ${origin} is not allowed`);
        return;
      }
      this.#options.upgraded?.(socket);
      let helloBytes = head.length;
      const countHelloBytes = (chunk: Buffer) => {
        helloBytes += chunk.length;
        if (helloBytes <= this.#options.maxHelloBytes) return;
        socket.off("data", countHelloBytes);
        connection.close(
          new HookError(
            "LIMIT_EXCEEDED",
            `Hello: more than ${this.#options.maxHelloBytes} bytes arrived before the Hello was accepted`,
            { path: ["Hello"], details: { limit: this.#options.maxHelloBytes } },
          ),
          WS_CLOSE_CODES.frameTooLarge,
        );
        // Whatever `ws` has buffered of the frame goes with the socket; nothing more is read.
        ws.terminate();
      };
      const connection = new WsConnection(ws, {
        ...this.#options,
        onAuthenticated: () => {
          socket.off("data", countHelloBytes);
          this.#options.authenticated?.(socket);
        },
      });
      // `ws` reads the socket first (its listener came first), so this sees every chunk it got.
      socket.on("data", countHelloBytes);
      this.#connections.set(ws, connection);
      this.#alive.add(ws);
      ws.on("pong", () => this.#alive.add(ws));
      ws.once("close", () => this.#connections.delete(ws));
    });
  }

  /**
   * Close every socket (the hub has already ended the authenticated ones with 1001), waiting
   * up to `graceMs` for close handshakes before cutting the rest.
   */
  async close(graceMs = 1000): Promise<void> {
    clearInterval(this.#keepalive);
    const sockets = [...this.#connections.keys()];
    const closed = sockets.map(
      (ws) =>
        new Promise<void>((resolve) =>
          ws.readyState === ws.CLOSED ? resolve() : ws.once("close", () => resolve()),
        ),
    );
    for (const ws of sockets) ws.close(WS_CLOSE_CODES.goingAway, "the hook server is closing");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    for (const ws of sockets) if (ws.readyState !== ws.CLOSED) ws.terminate();
    this.#server.close();
  }

  #ping(): void {
    for (const ws of this.#connections.keys()) {
      if (!this.#alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.#alive.delete(ws);
      ws.ping();
    }
  }
}
