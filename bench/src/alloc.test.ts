import { describe, expect, it } from "vitest";
import { bytesPerCall } from "./alloc.js";
import { BenchError } from "./bench-error.js";

describe("bytesPerCall", () => {
  it("counts nothing for a call that allocates nothing", () => {
    const empty = (x: number) => x;
    // The least of three runs: another allocation in the process (a timer, the runner's own
    // bookkeeping) can land in any one loop on a busy machine, never in all three.
    const runs = [1, 2, 3].map(() => bytesPerCall(() => empty(1), 100_000));
    expect(Math.min(...runs)).toBeLessThan(1);
  });

  it("counts what a call allocates, including garbage swept in the middle of the loop", () => {
    // 1,000 doubles on the JS heap: at least 8 kB each call; 2,000 calls make 16 MB, far past
    // a young GC. (Not a Float64Array: its bytes live outside the JS heap.)
    const bytes = bytesPerCall(() => new Array(1000).fill(1.5), 2000);
    expect(bytes).toBeGreaterThanOrEqual(8000);
    expect(bytes).toBeLessThan(8000 * 2);
  });

  it("tells a small allocation from none", () => {
    let i = 0;
    expect(bytesPerCall(() => ({ i: i++ }), 100_000)).toBeGreaterThanOrEqual(12);
  });

  it("rejects a call count that is not a positive integer", () => {
    expect(() => bytesPerCall(() => 0, 0)).toThrow(BenchError);
    expect(() => bytesPerCall(() => 0, 1.5)).toThrow(/positive integer, got 1.5/);
  });
});
