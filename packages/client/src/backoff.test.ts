import { describe, expect, it } from "vitest";
import { Backoff } from "./backoff.js";

describe("Backoff", () => {
  it("doubles up to the maximum, and starts over after reset", () => {
    const backoff = new Backoff(100, 1000, () => 0.5);
    expect([1, 2, 3, 4, 5, 6].map(() => backoff.next())).toEqual([100, 200, 400, 800, 1000, 1000]);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it("jitters within ±20 %", () => {
    expect(new Backoff(1000, 1000, () => 0).next()).toBe(800);
    expect(new Backoff(1000, 1000, () => 0.999_999).next()).toBe(1200);
  });

  it("never overflows however many attempts fail", () => {
    const backoff = new Backoff(100, 5000, () => 0.5);
    for (let i = 0; i < 10_000; i++) backoff.next();
    expect(backoff.next()).toBe(5000);
  });
});
