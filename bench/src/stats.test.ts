import { describe, expect, it } from "vitest";
import { BenchError } from "./bench-error.js";
import { quantile, summarize } from "./stats.js";

describe("quantile", () => {
  it("interpolates between the nearest ranks", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20], 0.25)).toBe(12.5);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([1, 2, 3], 0)).toBe(1);
    expect(quantile([1, 2, 3], 1)).toBe(3);
  });

  it("rejects no samples and a q outside [0, 1]", () => {
    expect(() => quantile([], 0.5)).toThrow(BenchError);
    expect(() => quantile([1], 1.5)).toThrow(/q must be in \[0, 1\], got 1.5/);
    expect(() => quantile([1], Number.NaN)).toThrow(/got NaN/);
  });
});

describe("summarize", () => {
  it("sorts numerically (not as strings) and reports median, p99, min, max and mean", () => {
    const s = summarize([100, 9, 20, 3]);
    expect(s).toMatchObject({ n: 4, median: 14.5, min: 3, max: 100, mean: 33 });
    expect(s.p99).toBeCloseTo(97.6, 9);
  });

  it("puts one outlier in 100 samples into p99 but not into the median", () => {
    const samples = [...Array.from({ length: 99 }, () => 10), 1000];
    const s = summarize(samples);
    expect(s.median).toBe(10);
    expect(s.p99).toBeCloseTo(10 + 0.01 * 990, 6);
  });

  it("rejects empty input and NaN or infinite samples with a typed error", () => {
    expect(() => summarize([])).toThrow(expect.objectContaining({ code: "TASK_FAILED" }));
    expect(() => summarize([1, Number.NaN])).toThrow(/sample NaN is not a finite number/);
    expect(() => summarize([Number.POSITIVE_INFINITY])).toThrow(/Infinity/);
  });

  it("handles a million samples", () => {
    const samples = Array.from({ length: 1_000_000 }, (_, i) => i);
    const s = summarize(samples);
    expect(s.median).toBe(499_999.5);
    expect(s.max).toBe(999_999);
  });
});
