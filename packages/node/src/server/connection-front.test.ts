import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionFront } from "./connection-front.js";

const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A front whose two sides record what they are handed: the side, and every byte read. */
async function front(sniffTimeoutMs?: number) {
  const routed: { side: "http1" | "http2"; data: Promise<string> }[] = [];
  let onRouted!: () => void;
  const firstRouted = new Promise<void>((resolve) => (onRouted = resolve));
  const take = (side: "http1" | "http2") => (socket: Socket) => {
    const data = new Promise<string>((resolve) => {
      let text = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => {
        socket.end();
        resolve(text);
      });
      // The front leaves an HTTP/2 socket paused for node's HTTP/2 session to read.
      socket.resume();
    });
    routed.push({ side, data });
    onRouted();
  };
  const f = new ConnectionFront({
    http1: take("http1"),
    http2: take("http2"),
    ...(sniffTimeoutMs !== undefined ? { sniffTimeoutMs } : {}),
  });
  const port = await f.listen("127.0.0.1", 0);
  cleanup.push(() => f.close(0));
  return { port, routed, firstRouted };
}

/** Connect, write `parts` one by one (each after the event loop turned), then half-close. */
async function send(port: number, parts: string[]): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  socket.on("error", () => {});
  cleanup.push(() => socket.destroy());
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const part of parts) {
    socket.write(part, "latin1");
    await new Promise((resolve) => setImmediate(resolve));
  }
  socket.end();
  return socket;
}

describe("ConnectionFront", () => {
  it("hands a connection that opens with the HTTP/2 preface to the HTTP/2 side, bytes intact", async () => {
    const { port, routed, firstRouted } = await front();
    await send(port, [PREFACE.slice(0, 3), PREFACE.slice(3, 17), PREFACE.slice(17), "frames"]);
    await firstRouted;
    expect(routed.map((r) => r.side)).toEqual(["http2"]);
    expect(await routed[0]!.data).toBe(`${PREFACE}frames`);
  });

  it.each([
    ["GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["POST (a P, then not the preface)", "POST /x HTTP/1.1\r\n\r\n"],
    ["a preface cut short by other bytes", "PRI * HTTP/1.1\r\n\r\n"],
  ])("hands %s to the HTTP/1.1 side, bytes intact", async (_, request) => {
    const { port, routed, firstRouted } = await front();
    await send(port, [request.slice(0, 2), request.slice(2)]);
    await firstRouted;
    expect(routed.map((r) => r.side)).toEqual(["http1"]);
    expect(await routed[0]!.data).toBe(request);
  });

  it("drops a connection that stays silent, without routing it", async () => {
    const { port, routed } = await front(30);
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    cleanup.push(() => socket.destroy());
    await new Promise((resolve) => socket.once("close", resolve));
    expect(routed).toEqual([]);
  });

  it("refuses a port already taken, with a clear error", async () => {
    const { port } = await front();
    const other = new ConnectionFront({ http1: () => {}, http2: () => {} });
    await expect(other.listen("127.0.0.1", port)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining(`cannot listen on 127.0.0.1:${port}`),
    });
    await other.close(0);
  });
});
