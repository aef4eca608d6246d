import { createServer, type Server, type Socket } from "node:net";
import { HookError } from "@a3s-lab/hooks-core";

/** What every HTTP/2 connection sends first (RFC 9113 §3.4); gRPC always speaks HTTP/2. */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** The two sides a {@link ConnectionFront} routes connections to. */
export interface ConnectionFrontOptions {
  /** Takes a connection that opened with the HTTP/2 preface (gRPC). */
  http2(socket: Socket): void;
  /** Takes every other connection (HTTP/1.1: pages and WebSocket upgrades). */
  http1(socket: Socket): void;
  /**
   * How long a new connection has to authenticate ({@link ConnectionFront.authenticated}),
   * unless it is {@link ConnectionFront.busy}; then it is closed. Default 5000 ms.
   */
  authTimeoutMs?: number;
  /** Connections open at once; past it, a new one is refused. Default 1000. */
  maxConnections?: number;
  /**
   * Connections open at once that have not authenticated yet; past it, the oldest of them is
   * closed to make room. Default half of `maxConnections`, at most 1000.
   */
  maxUnauthenticatedConnections?: number;
}

/** A connection as grpc-js describes it: enough to find the socket it came on. */
export interface ConnectionPeer {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localPort?: number | undefined;
}

const peerKey = (address: string | undefined, port: number | undefined) => `${address}|${port}`;

/**
 * One TCP port for gRPC and WebSocket: reads the first bytes of each connection, then hands
 * the socket (with those bytes put back) to the HTTP/2 side when they are the HTTP/2
 * preface, and to the HTTP/1.1 side otherwise. Nothing is parsed beyond 24 bytes, so the
 * front adds no work to a connection once it is routed.
 *
 * It also bounds what strangers can hold: connections in total, and connections that have
 * not authenticated (the oldest of which make room for a newcomer, so a flood of idle
 * connections cannot lock a client with a token out), each of which must authenticate within
 * `authTimeoutMs`. The servers behind it say when a connection has authenticated.
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
  readonly #servers: Server[] = [];
  readonly #sockets = new Set<Socket>();
  /** Each with its deadline; oldest first, as a Map keeps insertion order. */
  readonly #unauthenticated = new Map<Socket, ReturnType<typeof setTimeout> | undefined>();
  readonly #byPeer = new Map<string, Socket>();
  readonly #options: ConnectionFrontOptions;
  readonly #maxConnections: number;
  readonly #maxUnauthenticated: number;
  readonly #ports = new Set<number>();

  constructor(options: ConnectionFrontOptions) {
    this.#options = options;
    this.#maxConnections = options.maxConnections ?? 1000;
    this.#maxUnauthenticated =
      options.maxUnauthenticatedConnections ??
      Math.max(1, Math.min(1000, Math.floor(this.#maxConnections / 2)));
  }

  /** Connections open now, and how many of them have not authenticated. */
  get size(): { connections: number; unauthenticated: number } {
    return { connections: this.#sockets.size, unauthenticated: this.#unauthenticated.size };
  }

  /** A call on this connection passed the token check: no deadline and no eviction now. */
  authenticated(socket: Socket): void {
    if (!this.#unauthenticated.has(socket)) return;
    clearTimeout(this.#unauthenticated.get(socket));
    this.#unauthenticated.delete(socket);
  }

  /**
   * {@link authenticated} for the connection a gRPC call reports; ignored when the call came
   * through another front.
   */
  authenticatedPeer(peer: ConnectionPeer): void {
    if (peer.localPort === undefined || !this.#ports.has(peer.localPort)) return;
    const socket = this.#byPeer.get(peerKey(peer.remoteAddress, peer.remotePort));
    if (socket) this.authenticated(socket);
  }

  /**
   * Close the connection of `peer` (`address:port`, as grpc-js's `getPeer()` gives it) at
   * once, authenticated or not.
   */
  dropPeer(peer: string): void {
    const colon = peer.lastIndexOf(":");
    const socket = this.#byPeer.get(peerKey(peer.slice(0, colon), Number(peer.slice(colon + 1))));
    if (socket) this.#drop(socket);
  }

  /**
   * Hold off the authentication deadline of a connection that is busy for a good reason (a
   * page being served, a WebSocket waiting for its Hello under its own deadline). It still
   * counts as unauthenticated. The returned function restarts the deadline.
   */
  busy(socket: Socket): () => void {
    if (!this.#unauthenticated.has(socket)) return () => {};
    clearTimeout(this.#unauthenticated.get(socket));
    this.#unauthenticated.set(socket, undefined);
    return () => {
      if (this.#unauthenticated.has(socket))
        this.#unauthenticated.set(socket, this.#deadline(socket));
    };
  }

  /**
   * Bind; resolves with the port (the real one when 0 was asked for). Every port of one front
   * shares its limits. With `take`, every connection of this port goes to it unread (a TLS
   * port, whose first bytes say nothing), under the same limits.
   */
  listen(host: string, port: number, take?: (socket: Socket) => void): Promise<number> {
    const server = createServer((socket) => this.#accept(socket, take));
    this.#servers.push(server);
    return new Promise((resolve, reject) => {
      const where = `${bracketed(host)}:${port}`;
      const onError = (error: Error) =>
        reject(
          new HookError("UNAVAILABLE", `cannot listen on ${where}: ${error.message}`, {
            cause: error,
          }),
        );
      server.once("error", onError);
      server.listen({ host, port, exclusive: true }, () => {
        server.off("error", onError);
        const bound = (server.address() as { port: number }).port;
        this.#ports.add(bound);
        resolve(bound);
      });
    });
  }

  /**
   * Stop accepting connections. Connections already handed over belong to their servers,
   * which close them; whatever is still open after `graceMs` is destroyed.
   */
  async close(graceMs = 1000): Promise<void> {
    const force = setTimeout(() => {
      for (const socket of this.#sockets) socket.destroy();
    }, graceMs);
    force.unref();
    if (this.#sockets.size === 0) clearTimeout(force);
    await Promise.all(
      this.#servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    clearTimeout(force);
  }

  #deadline(socket: Socket): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#drop(socket), this.#options.authTimeoutMs ?? 5000);
    timer.unref();
    return timer;
  }

  /** Close the stranger that has waited longest, at once: its slot is needed now. */
  #evictOldest(): boolean {
    const [oldest] = this.#unauthenticated.keys();
    if (!oldest) return false;
    this.#drop(oldest);
    return true;
  }

  #drop(socket: Socket): void {
    this.#forget(socket);
    socket.destroy();
  }

  #forget(socket: Socket): void {
    clearTimeout(this.#unauthenticated.get(socket));
    this.#unauthenticated.delete(socket);
    this.#sockets.delete(socket);
    const key = peerKey(socket.remoteAddress, socket.remotePort);
    if (this.#byPeer.get(key) === socket) this.#byPeer.delete(key);
  }

  #accept(socket: Socket, take: ((socket: Socket) => void) | undefined): void {
    // A reset from the peer must not crash the host, whichever side owns the socket then.
    socket.on("error", () => {});
    if (this.#sockets.size >= this.#maxConnections && !this.#evictOldest()) {
      socket.destroy();
      return;
    }
    if (this.#unauthenticated.size >= this.#maxUnauthenticated) this.#evictOldest();
    this.#sockets.add(socket);
    this.#unauthenticated.set(socket, this.#deadline(socket));
    this.#byPeer.set(peerKey(socket.remoteAddress, socket.remotePort), socket);
    socket.once("close", () => this.#forget(socket));
    if (take) {
      take(socket);
      return;
    }
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
      const n = Math.min(head.length, HTTP2_PREFACE.length);
      const isPreface = head.subarray(0, n).equals(HTTP2_PREFACE.subarray(0, n));
      if (isPreface && n < HTTP2_PREFACE.length) return;
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
  }
}

/** `host` as it goes before `:port`: an IPv6 address in brackets, anything else as it is. */
export function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
