import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";

describe("RateLimiter", () => {
  it("allows a burst, then refills at the steady rate, never above the burst", () => {
    let now = 0;
    const limiter = new RateLimiter({ burst: 3, perSecond: 2 }, { now: () => now });
    expect([limiter.take(), limiter.take(), limiter.take()]).toEqual([0, 0, 0]);
    expect(limiter.take()).toBe(500);
    now += 500;
    expect(limiter.take()).toBe(0);
    now += 60_000;
    expect([limiter.take(), limiter.take(), limiter.take(), limiter.take()]).toEqual([
      0, 0, 0, 500,
    ]);
  });
});
