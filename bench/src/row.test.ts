import { describe, expect, it } from "vitest";
import { goals, makeRow, type Side } from "./row.js";

const ns = (median: number, extra: Partial<Side> = {}): Side => ({
  label: "x",
  unit: "ns",
  median,
  p99: median * 2,
  ...extra,
});

describe("makeRow", () => {
  it("computes the ratio of medians and of p99s, ours over the baseline", () => {
    const row = makeRow({
      id: "r",
      what: "w",
      ours: ns(30),
      baseline: ns(10),
      goal: goals.none(),
      smoke: false,
    });
    expect(row.ratio).toBe(3);
    expect(row.p99Ratio).toBe(3);
    expect(row.verdict).toBe("info");
  });

  it("judges the goal in a full run and never in a smoke run", () => {
    const input = {
      id: "r",
      what: "w",
      ours: ns(15),
      baseline: ns(10),
      goal: goals.ratioAtMost(2),
    };
    expect(makeRow({ ...input, smoke: false }).verdict).toBe("met");
    expect(makeRow({ ...input, ours: ns(25), smoke: false }).verdict).toBe("missed");
    expect(makeRow({ ...input, ours: ns(25), smoke: true }).verdict).toBe("unjudged");
  });

  it("leaves the ratio out when the baseline took no time, rather than printing Infinity", () => {
    const row = makeRow({
      id: "r",
      what: "w",
      ours: ns(5),
      baseline: ns(0),
      goal: goals.none(),
      smoke: false,
    });
    expect(row.ratio).toBeUndefined();
    expect(row.p99Ratio).toBeUndefined();
  });
  it("refuses a row without what its goal reads, in smoke runs too", () => {
    const cpuRow = (ours: Side, smoke: boolean) =>
      makeRow({
        id: "remote.grpc.cpu",
        what: "w",
        ours,
        goal: goals.cpuAtMost(50_000, "≤ 50 µs"),
        smoke,
      });
    // The CPU row once carried its number only as the median: its goal could never be met.
    for (const smoke of [true, false]) {
      expect(() => cpuRow(ns(39_000), smoke)).toThrow(
        expect.objectContaining({
          code: "TASK_FAILED",
          message:
            'remote.grpc.cpu: the goal "≤ 50 µs" reads ours.cpu, which the row does not have',
        }),
      );
    }
    expect(cpuRow(ns(39_000, { cpu: 39_000 }), false).verdict).toBe("met");
    expect(() =>
      makeRow({ id: "r", what: "w", ours: ns(1), goal: goals.ratioAtMost(1.3), smoke: true }),
    ).toThrow("reads the baseline");
    expect(() =>
      makeRow({
        id: "r",
        what: "w",
        ours: { label: "x", unit: "ns", median: 1 },
        baseline: ns(1),
        goal: goals.ratioAndP99(1.3, 2e6, "p99"),
        smoke: false,
      }),
    ).toThrow("reads ours.p99");
    expect(() =>
      makeRow({
        id: "r",
        what: "w",
        ours: ns(1),
        goal: goals.throughputAtLeast(1, "t"),
        smoke: false,
      }),
    ).toThrow("reads ours.throughput");
  });
});

describe("goals", () => {
  it("each decides on the number it is about", () => {
    const b = ns(1000);
    expect(goals.fasterThan().test!(ns(999), b)).toBe(true);
    expect(goals.fasterThan().test!(ns(1000), b)).toBe(false);
    expect(goals.medianBelow(100, "").test!(ns(99), undefined)).toBe(true);
    expect(goals.medianBelow(100, "").test!(ns(100), undefined)).toBe(false);
    expect(goals.overheadBelow(1e6, "").test!(ns(1e6 + 999), b)).toBe(true);
    expect(goals.overheadBelow(1e6, "").test!(ns(1e6 + 1000), b)).toBe(false);
    expect(goals.ratioAndP99(1.3, 2e6, "").test!(ns(1300, { p99: 1.9e6 }), b)).toBe(true);
    expect(goals.ratioAndP99(1.3, 2e6, "").test!(ns(1300, { p99: 2e6 }), b)).toBe(false);
    expect(goals.ratioAndP99(1.3, 2e6, "").test!(ns(1301, { p99: 1 }), b)).toBe(false);
    expect(goals.throughputAtLeast(10_000, "").test!(ns(1, { throughput: 10_000 }), b)).toBe(true);
    expect(goals.throughputAtLeast(10_000, "").test!(ns(1, { throughput: 9_999 }), b)).toBe(false);
    expect(goals.throughputAtLeast(10_000, "").test!(ns(1), b)).toBe(false);
    expect(goals.cpuAtMost(50_000, "").test!(ns(1, { cpu: 50_000 }), b)).toBe(true);
    expect(goals.cpuAtMost(50_000, "").test!(ns(1), b)).toBe(false);
  });

  it("allocation and memory goals compare bytes with the baseline", () => {
    const bytes = (median: number): Side => ({ label: "b", unit: "B", median });
    expect(goals.noAllocation().test!(bytes(0.4), bytes(0))).toBe(true);
    expect(goals.noAllocation().test!(bytes(136), bytes(0))).toBe(false);
    expect(goals.growthBelow(5e6, "").test!(bytes(14.9e6), bytes(10e6))).toBe(true);
    expect(goals.growthBelow(5e6, "").test!(bytes(15e6), bytes(10e6))).toBe(false);
  });

  it("a ratio goal without a baseline is missed, not met", () => {
    expect(goals.ratioAtMost(2).test!(ns(1), undefined)).toBe(false);
  });
});
