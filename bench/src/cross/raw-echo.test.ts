import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type EchoHost, startEcho } from "./echo-host.js";
import { startRawGrpcHost } from "./raw-grpc.js";
import { startRawWsHost } from "./raw-ws.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function echoPair(
  start: () => Promise<EchoHost>,
  peer: "grpc-echo-client" | "ws-echo-client",
) {
  const pair = await startEcho(start, peer);
  cleanup.push(pair.close);
  return pair.host;
}

describe.each([
  ["grpc-js", startRawGrpcHost, "grpc-echo-client"],
  ["ws", startRawWsHost, "ws-echo-client"],
] as const)("the raw %s echo, peer in another process", (_name, start, peer) => {
  it("sends every message back unchanged and in order, also 16 at once", async () => {
    const host = await echoPair(start, peer);
    const one = new Uint8Array(1024).map((_, i) => i & 0xff);
    expect(Array.from(await host.roundTrip(one))).toEqual(Array.from(one));
    const many = Array.from({ length: 16 }, (_, i) =>
      new TextEncoder().encode(`message ${i} `.repeat(i + 1)),
    );
    const echoes = await Promise.all(many.map((m) => host.roundTrip(m)));
    expect(echoes.map((e) => new TextDecoder().decode(e))).toEqual(
      many.map((m) => new TextDecoder().decode(m)),
    );
  });

  it("carries a 512 KiB message", async () => {
    const host = await echoPair(start, peer);
    const big = new Uint8Array(512 * 1024).fill(7);
    expect((await host.roundTrip(big)).byteLength).toBe(big.byteLength);
  });

  it("listens on 127.0.0.1 only, and fails a round trip with no peer instead of hanging", async () => {
    const host = await start();
    cleanup.push(() => host.close());
    await expect(host.roundTrip(new Uint8Array(1))).rejects.toMatchObject({ code: "CHILD_FAILED" });
    await expect(host.waitForPeer(1)).rejects.toMatchObject({ code: "TIMEOUT" });
  });
});

describe("the raw ws echo with text frames, as the hook server's protocol sends", () => {
  it("sends text frames and the child peer answers in text, byte for byte", async () => {
    const host = await startRawWsHost({ text: true });
    cleanup.push(() => host.close());
    // A peer in this process first, to see the frame kind on the wire.
    const kinds: boolean[] = [];
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}`);
    cleanup.push(async () => socket.terminate());
    socket.on("message", (data: Buffer, isBinary: boolean) => {
      kinds.push(isBinary);
      socket.send(data, { binary: isBinary });
    });
    await host.waitForPeer();
    const frame = new TextEncoder().encode(JSON.stringify({ type: "HookEvent", payload: "ü" }));
    expect(Array.from(await host.roundTrip(frame))).toEqual(Array.from(frame));
    expect(kinds).toEqual([false]);
  });

  it("through the child peer, a JSON text frame comes back unchanged", async () => {
    const host = await echoPair(() => startRawWsHost({ text: true }), "ws-echo-client");
    const frame = new TextEncoder().encode(
      JSON.stringify({ type: "HookEvent", n: "x".repeat(1024) }),
    );
    expect(new TextDecoder().decode(await host.roundTrip(frame))).toBe(
      new TextDecoder().decode(frame),
    );
  });
});
