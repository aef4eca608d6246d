import { describe, expect, it } from "vitest";
import { peerGate, pipelined, ReplyQueue } from "./echo-host.js";

describe("ReplyQueue", () => {
  it("hands replies to requests first in, first out, and fails the rest at once", async () => {
    const q = new ReplyQueue();
    const a = q.push();
    const b = q.push();
    const c = q.push();
    q.deliver(new Uint8Array([1]));
    q.deliver(new Uint8Array([2]));
    expect(Array.from(await a)).toEqual([1]);
    expect(Array.from(await b)).toEqual([2]);
    q.failAll(new Error("gone"));
    await expect(c).rejects.toThrow("gone");
    expect(q.size).toBe(0);
    // A stray reply with nobody waiting is dropped, not thrown.
    q.deliver(new Uint8Array([3]));
  });
});

describe("peerGate", () => {
  it("resolves once opened, and fails with TIMEOUT when nobody comes", async () => {
    const open = peerGate("test");
    const waiting = open.promise(10_000);
    open.open();
    await expect(waiting).resolves.toBeUndefined();
    await expect(peerGate("lonely").promise(1)).rejects.toMatchObject({
      code: "TIMEOUT",
      message: "lonely: no peer connected within 1 ms",
    });
  });
});

describe("pipelined", () => {
  it("keeps at most inFlight messages outstanding and times every one", async () => {
    let running = 0;
    let most = 0;
    const result = await pipelined(
      async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setImmediate(r));
        running--;
      },
      100,
      16,
    );
    expect(result.latencies).toHaveLength(100);
    expect(most).toBe(16);
    expect(result.throughput).toBeGreaterThan(0);
    expect(result.cpuPerMessage).toBeGreaterThanOrEqual(0);
  });

  it("never starts more messages than asked for", async () => {
    let calls = 0;
    const result = await pipelined(async () => void calls++, 3, 16);
    expect(calls).toBe(3);
    expect(result.latencies).toHaveLength(3);
  });
});
