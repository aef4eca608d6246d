import type { Timers } from "@a3s-lab/hooks-core";

/** Timers that move only when the test says so: no test waits for a real backoff or timeout. */
export class ManualTimers implements Timers {
  #now = 0;
  #seq = 0;
  #tasks = new Map<number, { at: number; run: () => void }>();

  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = ++this.#seq;
    this.#tasks.set(id, { at: this.#now + ms, run: callback });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#tasks.delete(handle as number);
  };

  now = (): number => this.#now;

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#tasks.size;
  }

  /** Move the clock, firing what falls due in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#tasks.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.#tasks.delete(due[0]);
      this.#now = due[1].at;
      due[1].run();
    }
    this.#now = until;
  }
}
