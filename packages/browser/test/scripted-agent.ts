import type { IncomingMessage } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";

export type Frame = Record<string, unknown> & { type: string; id?: string | undefined };

/** One socket as the scripted agent sees it. */
export interface AgentSocket {
  readonly ws: WebSocket;
  readonly request: IncomingMessage;
  readonly frames: Frame[];
  /** The first frame (seen or still to come) that passes `test`. */
  next(test: (frame: Frame) => boolean): Promise<Frame>;
  send(frame: Frame | string): void;
  readonly closed: Promise<{ code: number; reason: string }>;
}

/**
 * A stand-in hook server on 127.0.0.1 that does exactly what a test scripts: it records every
 * frame and lets the test answer (or misbehave). The real server is tested against this
 * transport in `@a3s-lab/hooks-node`'s conformance suite.
 */
export class ScriptedAgent {
  readonly sockets: AgentSocket[] = [];
  readonly #server: WebSocketServer;
  readonly #ready: Promise<void>;
  #waiters: ((socket: AgentSocket) => void)[] = [];

  /** `welcome`: answer a Hello with a Welcome on its own (default true). */
  constructor(
    readonly options: { welcome?: boolean; resumed?: boolean; clientSecret?: string } = {},
  ) {
    this.#server = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      handleProtocols: (offered) => (offered.has("a3s.hooks.v1") ? "a3s.hooks.v1" : false),
    });
    this.#ready = new Promise((resolve) => this.#server.once("listening", () => resolve()));
    this.#server.on("connection", (ws, request) => this.#accept(ws, request));
  }

  async address(): Promise<string> {
    await this.#ready;
    return `127.0.0.1:${(this.#server.address() as { port: number }).port}`;
  }

  /** The n-th socket (0-based), once it has connected. */
  socket(n = 0): Promise<AgentSocket> {
    const seen = this.sockets[n];
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const wait = (socket: AgentSocket) => {
        if (this.sockets.indexOf(socket) !== n) return;
        this.#waiters = this.#waiters.filter((w) => w !== wait);
        resolve(socket);
      };
      this.#waiters.push(wait);
    });
  }

  async close(): Promise<void> {
    for (const client of this.#server.clients) client.terminate();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #accept(ws: WebSocket, request: IncomingMessage): void {
    const frames: Frame[] = [];
    let waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
    const socket: AgentSocket = {
      ws,
      request,
      frames,
      closed,
      next: (test) => {
        const seen = frames.find(test);
        if (seen) return Promise.resolve(seen);
        return new Promise((resolve) => waiters.push({ test, resolve }));
      },
      send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    };
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      if (frame.type === "Hello" && this.options.welcome !== false) {
        socket.send({
          type: "Welcome",
          clientId: frame.clientId,
          resumed: this.options.resumed ?? false,
          protocol: "a3s.hooks.v1",
          ...(this.options.clientSecret ? { clientSecret: this.options.clientSecret } : {}),
        });
      }
      const due = waiters.filter((w) => w.test(frame));
      waiters = waiters.filter((w) => !due.includes(w));
      for (const w of due) w.resolve(frame);
    });
    ws.on("error", () => {});
    this.sockets.push(socket);
    for (const wait of [...this.#waiters]) wait(socket);
  }
}
