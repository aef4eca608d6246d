import { BenchError } from "./bench-error.js";

/** The location statistics a row reports for one side. */
export interface Summary {
  /** How many samples went in. */
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of ascending samples, linearly interpolated between the two
 * nearest ranks, so the median of an even count is the mean of the middle pair.
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new BenchError("TASK_FAILED", "quantile: no samples");
  if (!(q >= 0 && q <= 1))
    throw new BenchError("TASK_FAILED", `quantile: q must be in [0, 1], got ${q}`);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo]!;
  return a + (sorted[hi]! - a) * (at - lo);
}

/**
 * Median, p99 and friends of a set of samples. Rejects empty or non-finite input: a NaN that
 * slips into a ratio would print as a "met" goal.
 *
 * @example
 * ```ts
 * summarize([3, 1, 2]).median; // 2
 * ```
 */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new BenchError("TASK_FAILED", "summarize: no samples");
  let sum = 0;
  for (const s of samples) {
    if (!Number.isFinite(s)) {
      throw new BenchError("TASK_FAILED", `summarize: sample ${String(s)} is not a finite number`);
    }
    sum += s;
  }
  const sorted = Float64Array.from(samples).sort();
  const list = sorted as unknown as readonly number[];
  return {
    n: sorted.length,
    median: quantile(list, 0.5),
    p99: quantile(list, 0.99),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: sum / sorted.length,
  };
}
