import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionFront, type ConnectionFrontOptions } from "./connection-front.js";

const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A front whose two sides record what they are handed: the side, and every byte read. */
async function front(limits: Partial<ConnectionFrontOptions> = {}) {
  const routed: { side: "http1" | "http2"; data: Promise<string>; socket: Socket }[] = [];
  const waiters: (() => void)[] = [];
  /** The server's side of the `n`th routed connection (from 1), once it is routed. */
  const nth = (n: number) =>
    new Promise<Socket>((resolve) => {
      const check = () =>
        routed.length >= n ? resolve(routed[n - 1]!.socket) : waiters.push(check);
      check();
    });
  const firstRouted = nth(1);
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
    routed.push({ side, data, socket });
    for (const w of waiters.splice(0)) w();
  };
  const f = new ConnectionFront({
    http1: take("http1"),
    http2: take("http2"),
    ...limits,
  });
  const port = await f.listen("127.0.0.1", 0);
  cleanup.push(() => f.close(0));
  return { front: f, port, routed, firstRouted, nth };
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

/** A connected client socket that sent `first`, closed after the test. */
async function open(port: number, first?: string): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  cleanup.push(() => socket.destroy());
  await new Promise((resolve) => socket.once("connect", resolve));
  if (first) socket.write(first, "latin1");
  return socket;
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) =>
    socket.closed ? resolve() : socket.once("close", () => resolve()),
  );

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
    const { port, routed } = await front({ authTimeoutMs: 30 });
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    cleanup.push(() => socket.destroy());
    await new Promise((resolve) => socket.once("close", resolve));
    expect(routed).toEqual([]);
  });

  it("drops a routed connection that does not authenticate in time, and keeps one that does", async () => {
    const { front: f, port, nth } = await front({ authTimeoutMs: 200 });
    const good = await open(port, PREFACE);
    await nth(1);
    f.authenticatedPeer({
      remoteAddress: "127.0.0.1",
      remotePort: good.localPort,
      localPort: port,
    });
    const idle = await open(port, PREFACE);
    await nth(2);
    await closed(idle);
    expect(good.destroyed).toBe(false);
    expect(f.size).toEqual({ connections: 1, unauthenticated: 0 });
  });

  it("holds off the deadline of a busy connection until it is released", async () => {
    const { front: f, port, nth } = await front({ authTimeoutMs: 100 });
    const page = await open(port, "GET / HTTP/1.1\r\n");
    const release = f.busy(await nth(1));
    // A connection that came later has had its deadline; the busy one is still there.
    await closed(await open(port));
    expect(page.destroyed).toBe(false);
    release();
    await closed(page);
    expect(f.size).toEqual({ connections: 0, unauthenticated: 0 });
  });

  it("closes the oldest stranger to make room for a new one", async () => {
    const { front: f, port, nth } = await front({ maxUnauthenticatedConnections: 2 });
    const first = await open(port, "G");
    await nth(1);
    const second = await open(port, "G");
    await nth(2);
    const third = await open(port, "G");
    await closed(first);
    await nth(3);
    expect([second.destroyed, third.destroyed]).toEqual([false, false]);
    expect(f.size).toEqual({ connections: 2, unauthenticated: 2 });
  });

  it("refuses a connection past maxConnections unless a stranger can make room", async () => {
    const { front: f, port, nth } = await front({ maxConnections: 2 });
    const a = await open(port, "G");
    f.authenticated(await nth(1));
    const b = await open(port, "G");
    await nth(2);
    const c = await open(port, "G");
    await closed(b);
    f.authenticated(await nth(3));
    await closed(await open(port));
    expect([a.destroyed, c.destroyed]).toEqual([false, false]);
    expect(f.size).toEqual({ connections: 2, unauthenticated: 0 });
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
