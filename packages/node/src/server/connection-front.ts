import { createServer, type Server, type Socket } from "node:net";
import { HookError } from "@a3s-lab/hooks-core";
import { bracketed } from "./ws-origin.js";

/** What every HTTP/2 connection sends first (RFC 9113 §3.4); gRPC always speaks HTTP/2. */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** The two sides a {@link ConnectionFront} routes connections to. */
export interface ConnectionFrontOptions {
  /** Takes a connection that opened with the HTTP/2 preface (gRPC). */
  http2(socket: Socket): void;
  /** Takes every other connection (HTTP/1.1: pages and WebSocket upgrades). */
  http1(socket: Socket): void;
  /** How long a new connection may stay silent before it is dropped. Default 10 000 ms. */
  sniffTimeoutMs?: number;
}

/**
 * One TCP port for gRPC and WebSocket: reads the first bytes of each connection, then hands
 * the socket (with those bytes put back) to the HTTP/2 side when they are the HTTP/2
 * preface, and to the HTTP/1.1 side otherwise. Nothing is parsed beyond 24 bytes, so the
 * front adds no work to a connection once it is routed.
 *
 * @example
 * ```ts
 * const front = new ConnectionFront({
 *   http2: (socket) => injector.injectConnection(socket),
 *   http1: (socket) => httpServer.emit("connection", socket),
 * });
 * const port = await front.listen("127.0.0.1", 0);
 * ```
 */
export class ConnectionFront {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #options: ConnectionFrontOptions;

  constructor(options: ConnectionFrontOptions) {
    this.#options = options;
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** Bind; resolves with the port (the real one when 0 was asked for). */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const where = `${bracketed(host)}:${port}`;
      const onError = (error: Error) =>
        reject(
          new HookError("UNAVAILABLE", `cannot listen on ${where}: ${error.message}`, {
            cause: error,
          }),
        );
      this.#server.once("error", onError);
      this.#server.listen({ host, port, exclusive: true }, () => {
        this.#server.off("error", onError);
        resolve((this.#server.address() as { port: number }).port);
      });
    });
  }

  /**
   * Stop accepting connections. Connections already handed over belong to their servers,
   * which close them; whatever is still open after `graceMs` is destroyed.
   */
  close(graceMs = 1000): Promise<void> {
    return new Promise((resolve) => {
      const force = setTimeout(() => {
        for (const socket of this.#sockets) socket.destroy();
      }, graceMs);
      force.unref();
      this.#server.close(() => {
        clearTimeout(force);
        resolve();
      });
      if (this.#sockets.size === 0) clearTimeout(force);
    });
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    socket.once("close", () => this.#sockets.delete(socket));
    // A reset from the peer must not crash the host, whichever side owns the socket then.
    socket.on("error", () => {});
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), this.#options.sniffTimeoutMs ?? 10_000);
    timer.unref();
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
      const n = Math.min(head.length, HTTP2_PREFACE.length);
      const isPreface = head.subarray(0, n).equals(HTTP2_PREFACE.subarray(0, n));
      if (isPreface && n < HTTP2_PREFACE.length) return;
      clearTimeout(timer);
      socket.off("data", onData);
      socket.pause();
      socket.unshift(head);
      if (isPreface) this.#options.http2(socket);
      else {
        this.#options.http1(socket);
        // node's HTTP parser reads new bytes from the handle itself; the bytes put back
        // reach it through the stream, which must flow again for that.
        socket.resume();
      }
    };
    socket.on("data", onData);
    socket.once("close", () => clearTimeout(timer));
  }
}
