import { describe, expect, it } from "vitest";
import { describeSide, formatBytes, formatRatio, formatTime } from "./format.js";

describe("format", () => {
  it("picks the unit at each boundary", () => {
    expect(formatTime(0.64)).toBe("0.6 ns");
    expect(formatTime(37.2)).toBe("37 ns");
    expect(formatTime(999)).toBe("999 ns");
    expect(formatTime(1000)).toBe("1.00 µs");
    expect(formatTime(12_345)).toBe("12.3 µs");
    expect(formatTime(4_560_000)).toBe("4.56 ms");
    expect(formatTime(2.5e9)).toBe("2.50 s");
    expect(formatBytes(136)).toBe("136 B");
    expect(formatBytes(12_300)).toBe("12.3 kB");
    expect(formatBytes(41_234_567)).toBe("41.2 MB");
    expect(formatBytes(-2_000_000)).toBe("-2.00 MB");
    expect(formatRatio(1.234)).toBe("1.23×");
    expect(formatRatio(42.16)).toBe("42.2×");
    expect(formatRatio(undefined)).toBe("–");
  });

  it("adds throughput and CPU to a side's label when it has them", () => {
    expect(describeSide({ label: "echo", unit: "ns", median: 1 })).toBe("echo");
    expect(
      describeSide({ label: "echo", unit: "ns", median: 1, throughput: 12_345.6, cpu: 42_000 }),
    ).toBe("echo (12,346/s, 42.0 µs CPU/event)");
    // A CPU row's median is its CPU: said once, in the median column.
    expect(describeSide({ label: "server", unit: "ns", median: 39_000, cpu: 39_000 })).toBe(
      "server",
    );
  });
});
