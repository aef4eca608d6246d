import WebSocket, { WebSocketServer } from "ws";
import { BenchError } from "../bench-error.js";
import { type EchoHost, peerGate, ReplyQueue } from "./echo-host.js";

/** How {@link startRawWsHost} frames what it sends. */
export interface RawWsOptions {
  /**
   * Send text frames, as the hook server's JSON protocol does (the receiving ends then check
   * the bytes are UTF-8, as they do for ours). Default: binary frames, any bytes.
   */
  text?: boolean;
}

/**
 * The WebSocket baseline's agent side: a `ws` server on 127.0.0.1 that the peer connects to,
 * as a browser hook client connects to the agent. The host sends and waits for the echo; the
 * peer answers in the kind of frame it was sent.
 *
 * @example
 * ```ts
 * const host = await startRawWsHost({ text: true });
 * const peer = await startChild("ws-echo-client", { args: ["--port", String(host.port)] });
 * await host.waitForPeer();
 * await host.roundTrip(new TextEncoder().encode('{"type":"HookEvent"}'));
 * ```
 */
export async function startRawWsHost(options: RawWsOptions = {}): Promise<EchoHost> {
  const binary = options.text !== true;
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 1 << 20 });
  const replies = new ReplyQueue();
  const gate = peerGate("raw ws echo");
  let peer: WebSocket | undefined;
  server.on("connection", (socket) => {
    if (peer) {
      socket.close(1008, "one peer only");
      return;
    }
    peer = socket;
    socket.on("message", (data: Buffer) => replies.deliver(data));
    socket.on("close", () =>
      replies.failAll(new BenchError("CHILD_FAILED", "raw ws echo: the peer closed the socket")),
    );
    gate.open();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (error) =>
      reject(new BenchError("CHILD_FAILED", `raw ws echo: ${error.message}`, { cause: error })),
    );
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new BenchError("CHILD_FAILED", "raw ws echo: no TCP address");
  return {
    port: address.port,
    waitForPeer: (timeoutMs) => gate.promise(timeoutMs),
    roundTrip(bytes) {
      if (!peer) return Promise.reject(new BenchError("CHILD_FAILED", "raw ws echo: no peer yet"));
      const reply = replies.push();
      peer.send(bytes, { binary });
      return reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The peer: connect and send every message straight back. Used by the child script. */
export function echoOverWs(port: number): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  socket.on("message", (data: Buffer, isBinary: boolean) =>
    socket.send(data, { binary: isBinary }),
  );
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(socket));
    socket.once("error", (error) =>
      reject(new BenchError("CHILD_FAILED", `ws echo peer: ${error.message}`, { cause: error })),
    );
  });
}
