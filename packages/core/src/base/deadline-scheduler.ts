import type { Timers } from "./timers.js";

/** Something with a timeout: a running hook. */
export interface Expirable {
  /** Milliseconds it may run. */
  readonly timeout: number;
  /** True once it has an answer; it is no longer timed. */
  readonly settled: boolean;
  /** Owned by the scheduler. */
  timer: unknown;
  /** Called when its time is up (never after it settled). */
  expire(): void;
}

/** Queues a microtask more cheaply than `queueMicrotask` does in Node. */
export const RESOLVED = Promise.resolve();

/**
 * Timeouts of running hooks, without a timer for the hooks that answer at once. A hook's timer
 * starts when the turn that started it ends (a microtask later), and only if it is still
 * running then: most in-process hooks have answered by that point and never cost a timer
 * (setting and clearing a timer has a cost). The timer is cleared as soon
 * as the hook answers, so none outlives the work it guards.
 *
 * @example
 * ```ts
 * const deadlines = new DeadlineScheduler(defaultTimers);
 * deadlines.add(run);
 * deadlines.arm(); // run.timeout ms from the next microtask, run.expire() unless it settled first
 * // … when the run answers:
 * deadlines.done(run);
 * ```
 */
export class DeadlineScheduler {
  readonly #timers: Timers;
  #fresh: Expirable[] = [];

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  /** Time `entry` from the next {@link DeadlineScheduler.arm}. */
  add(entry: Expirable): void {
    this.#fresh.push(entry);
  }

  /**
   * Arm the entries added since the last call, a microtask from now. Call it after the
   * entries' own continuations are queued (after `then()`): entries that have already
   * answered settle in those, ahead of the arming, and cost no timer.
   */
  arm(): void {
    if (this.#fresh.length === 0) return;
    const entries = this.#fresh;
    this.#fresh = [];
    void RESOLVED.then(() => {
      for (const entry of entries) {
        if (!entry.settled)
          entry.timer = this.#timers.setTimeout(() => entry.expire(), entry.timeout);
      }
    });
  }

  /** `entry` settled: stop its timer. */
  done(entry: Expirable): void {
    if (entry.timer === undefined) return;
    this.#timers.clearTimeout(entry.timer);
    entry.timer = undefined;
  }
}
