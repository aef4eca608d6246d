import { RESOLVED } from "./deadline-scheduler.js";
import type { Timers } from "./timers.js";

/**
 * The clock for promise reactions that record when a promise settled. One reading serves every
 * reaction that runs before the microtask it queues: those reactions were queued before the
 * reading was taken, so their promises had settled by then, and the reading is never earlier
 * than the truth (and never later than reading the clock in each reaction would be). Ten hooks
 * that answer together cost one clock read instead of ten.
 *
 * Use it only from promise reactions; synchronous code must read the clock itself.
 *
 * @example
 * ```ts
 * const clock = new JobClock(defaultTimers);
 * promise.then(() => record(clock.now() - start));
 * ```
 */
export class JobClock {
  readonly #timers: Timers;
  #reading: number | undefined;
  readonly #forget = () => {
    this.#reading = undefined;
  };

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  now(): number {
    if (this.#reading === undefined) {
      this.#reading = this.#timers.now();
      void RESOLVED.then(this.#forget);
    }
    return this.#reading;
  }
}
