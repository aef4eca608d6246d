/** Reconnect delays: doubling from `initial` up to `max`, each with ±20 % jitter so many clients do not reconnect in step. */
export class Backoff {
  readonly #initial: number;
  readonly #max: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(initial = 100, max = 5000, random: () => number = Math.random) {
    this.#initial = initial;
    this.#max = Math.max(initial, max);
    this.#random = random;
  }

  /** The delay before the next attempt. */
  next(): number {
    const base = Math.min(this.#max, this.#initial * 2 ** Math.min(this.#attempt, 30));
    this.#attempt++;
    return Math.round(base * (0.8 + 0.4 * this.#random()));
  }

  reset(): void {
    this.#attempt = 0;
  }
}
