import { GCProfiler, getHeapStatistics } from "node:v8";
import { BenchError } from "./bench-error.js";

// Results are stored here so the optimiser must make every call; a store to an object that
// outlives the loop cannot be dropped.
const sink: { value: unknown } = { value: undefined };

// One loop for warm-up and measurement alike: once the JIT has optimised it, measuring makes
// no code, so the count holds the calls' allocations and not the compiler's.
function loop(fn: () => unknown, calls: number): void {
  for (let i = 0; i < calls; i++) sink.value = fn();
}

/**
 * Bytes allocated on the JS heap per call of `fn`, averaged over `calls` calls.
 *
 * How: run the loop a few times first so the JIT has settled, then read the heap's used size
 * before and after the measured loop, and add back what every garbage collection in between
 * freed. `v8.GCProfiler` reports each collection with the heap before and after it,
 * synchronously, so a collection in the middle of the loop does not hide the allocations it
 * swept (`--trace-gc` output would have to be parsed from stderr instead). The loop itself
 * allocates nothing (its counter stays a small integer), so an empty function measures 0.
 * Bytes outside the JS heap (an ArrayBuffer's backing store) are not counted.
 *
 * @example
 * ```ts
 * bytesPerCall(() => ({ a: 1 }), 100_000); // the size of one small object
 * ```
 */
export function bytesPerCall(fn: () => unknown, calls: number): number {
  if (!Number.isInteger(calls) || calls < 1) {
    throw new BenchError(
      "TASK_FAILED",
      `bytesPerCall: calls must be a positive integer, got ${calls}`,
    );
  }
  const warm = Math.min(calls, 20_000);
  for (let round = 0; round < 4; round++) loop(fn, warm);
  const profiler = new GCProfiler();
  profiler.start();
  const before = getHeapStatistics().used_heap_size;
  loop(fn, calls);
  const after = getHeapStatistics().used_heap_size;
  const report = profiler.stop();
  let freed = 0;
  for (const gc of report?.statistics ?? []) {
    freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  }
  sink.value = undefined;
  return Math.max(0, (after - before + freed) / calls);
}
