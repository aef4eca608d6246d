import { Bench, type FnReturnedObject } from "tinybench";
import { BenchError } from "./bench-error.js";

/** One operation to time. */
export interface TimedTask {
  /** Unique within one call of {@link sampleTasks}. */
  name: string;
  /** One operation. Its result is compared with a sink so the JIT cannot drop the call. */
  fn: () => unknown;
  /** Await each call (one after another, never overlapping). */
  async?: boolean;
}

export interface SampleOptions {
  /** tinybench runs; the task order is rotated every round, so drift hits every task alike. */
  rounds: number;
  /** Milliseconds of measuring per task per round. */
  time: number;
  /** Milliseconds of warm-up per task per round (lets the JIT settle). */
  warmupTime: number;
  /** Calls per sample. Each sample is the mean of one batch, so sub-microsecond calls are timeable. */
  batch: number;
}

/** Where loop results go, so the optimiser cannot drop the calls that made them. */
const sink = { hits: 0 };

type Loop = (
  fn: () => unknown,
  batch: number,
  box: typeof sink,
) => () => FnReturnedObject | Promise<FnReturnedObject>;

const SYNC_LOOP = `return () => {
  let hits = 0;
  const start = performance.now();
  for (let i = 0; i < batch; i++) if (fn() === box) hits++;
  const elapsed = performance.now() - start;
  box.hits += hits;
  return { overriddenDuration: elapsed / batch, overriddenIterationCost: elapsed };
};`;

const ASYNC_LOOP = `return async () => {
  let hits = 0;
  const start = performance.now();
  for (let i = 0; i < batch; i++) if ((await fn()) === box) hits++;
  const elapsed = performance.now() - start;
  box.hits += hits;
  return { overriddenDuration: elapsed / batch, overriddenIterationCost: elapsed };
};`;

/**
 * A timing loop of its own for each task. Compiled separately, each loop's call site sees one
 * function only, so the JIT treats ours and the baseline alike (inlining both or neither);
 * one shared loop would turn megamorphic and add a slow call to every side, hiding the
 * difference the row is about.
 */
function batched(
  task: TimedTask,
  batch: number,
): () => FnReturnedObject | Promise<FnReturnedObject> {
  const loop = new Function("fn", "batch", "box", task.async ? ASYNC_LOOP : SYNC_LOOP) as Loop;
  return loop(task.fn, batch, sink);
}

/**
 * Time several tasks that do the same work, in the same process and the same run, and return
 * every sample in nanoseconds per call. Tasks are interleaved round by round (A B C, B C A, …)
 * so a neighbour stealing the CPU for a second slows every side, not just one.
 *
 * @example
 * ```ts
 * const samples = await sampleTasks(
 *   [{ name: "ours", fn: () => engine.fire(event) }, { name: "empty", fn: () => noop(event) }],
 *   { rounds: 3, time: 200, warmupTime: 50, batch: 1000 },
 * );
 * summarize(samples.ours).median; // ns per call
 * ```
 */
export async function sampleTasks(
  tasks: readonly TimedTask[],
  options: SampleOptions,
): Promise<Record<string, number[]>> {
  const names = new Set(tasks.map((t) => t.name));
  if (names.size !== tasks.length) {
    throw new BenchError("TASK_FAILED", "sampleTasks: task names must be unique");
  }
  const out: Record<string, number[]> = Object.fromEntries(tasks.map((t) => [t.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: options.time,
      warmupTime: options.warmupTime,
      warmupIterations: 1,
      iterations: 8,
      retainSamples: true,
      // Errors are read from each task's result below, so the message can name the task.
      throws: false,
    });
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[(i + round) % tasks.length]!;
      bench.add(task.name, batched(task, options.batch), { async: task.async === true });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state === "errored") {
        throw new BenchError("TASK_FAILED", `${task.name}: ${result.error.message}`, {
          cause: result.error,
        });
      }
      if (result.state !== "completed" || !result.latency.samples) {
        throw new BenchError("TASK_FAILED", `${task.name}: no samples (state ${result.state})`);
      }
      const into = out[task.name]!;
      for (const ms of result.latency.samples) into.push(ms * 1e6);
    }
  }
  return out;
}

/**
 * A task that calls `fn` on each input in turn. Like the timing loops, it is compiled fresh
 * for every use, so the call to `fn` never shares JIT feedback with another row's function.
 *
 * @example
 * ```ts
 * const task = { name: "compiled", fn: overInputs(matcher, events) };
 * ```
 */
export function overInputs<T>(fn: (input: T) => unknown, inputs: readonly T[]): () => unknown {
  if (inputs.length === 0) throw new BenchError("TASK_FAILED", "overInputs: no inputs");
  const make = new Function(
    "fn",
    "inputs",
    "let i = 0; const n = inputs.length; return () => { const x = inputs[i]; i = i + 1 === n ? 0 : i + 1; return fn(x); };",
  ) as (f: typeof fn, xs: readonly T[]) => () => unknown;
  return make(fn, inputs);
}
