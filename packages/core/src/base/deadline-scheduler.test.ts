import { describe, expect, it } from "vitest";
import { DeadlineScheduler, type Expirable } from "./deadline-scheduler.js";
import type { Timers } from "./timers.js";

/** Timers that count what the scheduler asks for and fire only when told. */
function manualTimers() {
  const pending = new Map<number, { ms: number; run: () => void }>();
  let seq = 0;
  let started = 0;
  const timers: Timers = {
    setTimeout: (run, ms) => {
      started++;
      pending.set(++seq, { ms, run });
      return seq;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
    now: () => 0,
  };
  return {
    timers,
    pending,
    get started() {
      return started;
    },
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.run();
    },
  };
}

function entry(timeout: number): Expirable & { settled: boolean; expired: number; settle(): void } {
  return {
    timeout,
    settled: false,
    timer: undefined,
    expired: 0,
    expire() {
      this.expired++;
      this.settled = true;
    },
    settle() {
      this.settled = true;
    },
  };
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("DeadlineScheduler", () => {
  it("starts no timer for work that settles before the turn ends", async () => {
    const t = manualTimers();
    const deadlines = new DeadlineScheduler(t.timers);
    const quick = entry(1000);
    deadlines.add(quick);
    // Settled in a reaction queued before arm(): the arming microtask sees it done.
    void Promise.resolve().then(() => {
      quick.settle();
      deadlines.done(quick);
    });
    deadlines.arm();
    await nextTurn();
    expect(t.started).toBe(0);
    expect(quick.expired).toBe(0);
  });

  it("times work still running after the turn with its own timeout, and expires it", async () => {
    const t = manualTimers();
    const deadlines = new DeadlineScheduler(t.timers);
    const slow = entry(250);
    const slower = entry(900);
    deadlines.add(slow);
    deadlines.add(slower);
    deadlines.arm();
    expect(t.started).toBe(0); // not before the microtask
    await nextTurn();
    expect([...t.pending.values()].map((p) => p.ms)).toEqual([250, 900]);
    t.fireAll();
    expect([slow.expired, slower.expired]).toEqual([1, 1]);
  });

  it("clears the timer when the work settles, leaving none behind", async () => {
    const t = manualTimers();
    const deadlines = new DeadlineScheduler(t.timers);
    const slow = entry(100);
    deadlines.add(slow);
    deadlines.arm();
    await nextTurn();
    expect(t.pending.size).toBe(1);
    slow.settle();
    deadlines.done(slow);
    expect(t.pending.size).toBe(0);
    deadlines.done(slow); // twice is harmless
    expect(slow.expired).toBe(0);
  });

  it("arms nothing when nothing was added, and each arm() only what came before it", async () => {
    const t = manualTimers();
    const deadlines = new DeadlineScheduler(t.timers);
    deadlines.arm();
    const a = entry(10);
    deadlines.add(a);
    deadlines.arm();
    const b = entry(20);
    deadlines.add(b);
    deadlines.arm();
    deadlines.arm();
    await nextTurn();
    expect([...t.pending.values()].map((p) => p.ms)).toEqual([10, 20]);
  });
});
