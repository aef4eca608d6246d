import { describe, expect, it } from "vitest";
import { JobClock } from "./job-clock.js";
import type { Timers } from "./timers.js";

function countingClock() {
  let reads = 0;
  let time = 0;
  const timers: Timers = {
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
    now: () => {
      reads++;
      return time;
    },
  };
  return {
    timers,
    get reads() {
      return reads;
    },
    set time(t: number) {
      time = t;
    },
  };
}

describe("JobClock", () => {
  it("serves reactions queued before the first reading with that one reading", async () => {
    const c = countingClock();
    const clock = new JobClock(c.timers);
    c.time = 5;
    const readings: number[] = [];
    // Ten promises that settled together: their reactions are all queued before the first runs.
    await Promise.all(
      Array.from({ length: 10 }, () => Promise.resolve().then(() => readings.push(clock.now()))),
    );
    expect(readings).toEqual(Array(10).fill(5));
    expect(c.reads).toBe(1);
  });

  it("reads the clock again for reactions queued after the reading", async () => {
    const c = countingClock();
    const clock = new JobClock(c.timers);
    c.time = 1;
    expect(await Promise.resolve().then(() => clock.now())).toBe(1);
    c.time = 7;
    // Queued after the first reaction ran: the reading may be stale, so it is not reused.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await Promise.resolve().then(() => clock.now())).toBe(7);
    expect(c.reads).toBe(2);
  });
});
