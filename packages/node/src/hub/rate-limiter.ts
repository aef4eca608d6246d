import type { Timers } from "@a3s-lab/hooks-core";
import * as z from "zod/mini";

/** How fast one client may register hooks: a burst, refilled at a steady rate. */
export interface RateLimit {
  /** Registrations allowed at once. */
  burst: number;
  /** Registrations added back per second. */
  perSecond: number;
}

/** A {@link RateLimit} option, checked: a positive whole burst and a positive rate. */
export const rateLimitSchema = z.object({
  burst: z.int().check(z.positive()),
  perSecond: z.number().check(z.positive()),
});

/**
 * A token bucket. `take()` answers 0 when a token was taken, else the milliseconds until one
 * is available: enough for a clear "try again in …" message.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(limit: RateLimit, timers: Pick<Timers, "now">) {
    this.#limit = limit;
    this.#now = () => timers.now();
    this.#tokens = limit.burst;
    this.#at = this.#now();
  }

  take(): number {
    const now = this.#now();
    this.#tokens = Math.min(
      this.#limit.burst,
      this.#tokens + ((now - this.#at) / 1000) * this.#limit.perSecond,
    );
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.#tokens) / this.#limit.perSecond) * 1000);
  }
}
