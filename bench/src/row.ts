import { BenchError } from "./bench-error.js";
import type { Summary } from "./stats.js";

/** What a measurement counts. Times are always nanoseconds, sizes bytes. */
export type Unit = "ns" | "B";

/** One side of a row: ours, or the baseline it is compared with. */
export interface Side {
  /** What ran: `HookEngine.fire()`, `raw spawn`, … */
  label: string;
  unit: Unit;
  median: number;
  /** Absent where one number is all there is (a heap size after GC). */
  p99?: number;
  /** Samples behind median and p99. */
  n?: number;
  /** Operations per second over the whole run, for the pipelined rows. */
  throughput?: number;
  /** Agent-side CPU time per operation, in nanoseconds. */
  cpu?: number;
}

/** `met` and `missed` in full runs; `unjudged` in smoke runs; `info` for rows without a goal. */
export type Verdict = "met" | "missed" | "unjudged" | "info";

/** A measured row of the results table. */
export interface Row {
  /** Stable key, for comparing runs: `fire.hooks-1.plain`. */
  id: string;
  /** The `what` column. */
  what: string;
  ours: Side;
  baseline?: Side;
  /** ours.median / baseline.median: above 1 means ours costs more. */
  ratio?: number;
  /** ours.p99 / baseline.p99. */
  p99Ratio?: number;
  goal: string;
  /**
   * The goal as a ratio of the baseline's median (where the goal can be put that way), so the
   * chart can mark it next to `ratio`.
   */
  goalRatio?: number;
  verdict: Verdict;
  /** One line on anything a reader needs to read the numbers right. */
  note?: string;
}

/** A row whose our side does not exist yet: listed with the reason, never with a number. */
export interface PendingRow {
  id: string;
  what: string;
  goal: string;
  reason: string;
  /** The baseline, measured in this run, so the harness is known to work. */
  baseline?: Side;
}

/** What a goal's test reads besides `ours.median`: the baseline, or a field of ours. */
export type GoalNeed = "baseline" | "p99" | "throughput" | "cpu";

/** A goal: readable text and the test that decides it. */
export interface Goal {
  text: string;
  test?: (ours: Side, baseline: Side | undefined) => boolean;
  /**
   * What `test` reads. {@link makeRow} refuses a row that lacks any of it, in smoke runs too:
   * a goal must never be missed for want of a number the suite forgot to fill in.
   */
  needs?: readonly GoalNeed[];
  /**
   * The goal's limit as a ratio of the baseline's median, for the chart; absent where the goal
   * is not about the ratio (a throughput, an allocation).
   */
  ratio?: (baseline: Side) => number;
}

/** Side statistics from a summary. */
export function side(label: string, summary: Summary, unit: Unit = "ns"): Side {
  return { label, unit, median: summary.median, p99: summary.p99, n: summary.n };
}

/**
 * Build a row: compute the ratios and judge the goal (unless this is a smoke run). Throws a
 * `TASK_FAILED` {@link BenchError} when the sides lack what the goal reads (`goal.needs`).
 */
export function makeRow(input: {
  id: string;
  what: string;
  ours: Side;
  baseline?: Side;
  goal: Goal;
  smoke: boolean;
  note?: string;
}): Row {
  const { ours, baseline, goal } = input;
  for (const need of goal.needs ?? []) {
    const present = need === "baseline" ? baseline !== undefined : ours[need] !== undefined;
    if (!present) {
      throw new BenchError(
        "TASK_FAILED",
        `${input.id}: the goal "${goal.text}" reads ${need === "baseline" ? "the baseline" : `ours.${need}`}, which the row does not have`,
      );
    }
  }
  const row: Row = { id: input.id, what: input.what, ours, goal: goal.text, verdict: "info" };
  if (baseline) {
    row.baseline = baseline;
    if (baseline.median > 0) {
      row.ratio = ours.median / baseline.median;
      const goalRatio = goal.ratio?.(baseline);
      if (goalRatio !== undefined && Number.isFinite(goalRatio)) row.goalRatio = goalRatio;
    }
    if (ours.p99 !== undefined && baseline.p99 !== undefined && baseline.p99 > 0) {
      row.p99Ratio = ours.p99 / baseline.p99;
    }
  }
  if (goal.test)
    row.verdict = input.smoke ? "unjudged" : goal.test(ours, baseline) ? "met" : "missed";
  if (input.note !== undefined) row.note = input.note;
  return row;
}

/** Goals of the issue's table, as tests over the two sides. */
export const goals = {
  none: (text = "–"): Goal => ({ text }),
  ratioAtMost: (limit: number, text = `≤ ${limit}× baseline`): Goal => ({
    text,
    needs: ["baseline"],
    test: (o, b) => b !== undefined && o.median <= b.median * limit,
    ratio: () => limit,
  }),
  fasterThan: (text = "faster than baseline"): Goal => ({
    text,
    needs: ["baseline"],
    test: (o, b) => b !== undefined && o.median < b.median,
    ratio: () => 1,
  }),
  medianBelow: (limitNs: number, text: string): Goal => ({
    text,
    test: (o) => o.median < limitNs,
    ratio: (b) => limitNs / b.median,
  }),
  overheadBelow: (limitNs: number, text: string): Goal => ({
    text,
    needs: ["baseline"],
    test: (o, b) => b !== undefined && o.median - b.median < limitNs,
    ratio: (b) => (b.median + limitNs) / b.median,
  }),
  ratioAndP99: (limit: number, p99LimitNs: number, text: string): Goal => ({
    text,
    needs: ["baseline", "p99"],
    ratio: () => limit,
    test: (o, b) =>
      b !== undefined && o.median <= b.median * limit && o.p99 !== undefined && o.p99 < p99LimitNs,
  }),
  throughputAtLeast: (perSecond: number, text: string): Goal => ({
    text,
    needs: ["throughput"],
    test: (o) => o.throughput !== undefined && o.throughput >= perSecond,
  }),
  cpuAtMost: (limitNs: number, text: string): Goal => ({
    text,
    needs: ["cpu"],
    test: (o) => o.cpu !== undefined && o.cpu <= limitNs,
    ratio: (b) => limitNs / b.median,
  }),
  /** Allocation: no more bytes per call than the baseline (plus rounding). */
  noAllocation: (text = "no allocation per call"): Goal => ({
    text,
    test: (o, b) => o.median <= (b?.median ?? 0) + 1,
  }),
  /** Memory: ours is the heap after, the baseline the heap before. */
  growthBelow: (limitBytes: number, text: string): Goal => ({
    text,
    needs: ["baseline"],
    test: (o, b) => b !== undefined && o.median - b.median < limitBytes,
  }),
} as const;
