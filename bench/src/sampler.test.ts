import { describe, expect, it } from "vitest";
import { BenchError } from "./bench-error.js";
import { overInputs, sampleTasks } from "./sampler.js";

const quick = { rounds: 2, time: 5, warmupTime: 1, batch: 10 };

describe("sampleTasks", () => {
  it("returns per-call samples in nanoseconds for every task, from every round", async () => {
    let syncCalls = 0;
    let asyncCalls = 0;
    const samples = await sampleTasks(
      [
        { name: "sync", fn: () => syncCalls++ },
        {
          name: "async",
          fn: async () => {
            asyncCalls++;
          },
          async: true,
        },
      ],
      quick,
    );
    expect(Object.keys(samples)).toEqual(["sync", "async"]);
    for (const list of Object.values(samples)) {
      expect(list.length).toBeGreaterThanOrEqual(2 * 8);
      for (const s of list) expect(Number.isFinite(s) && s >= 0).toBe(true);
    }
    // Every sample is one batch: calls are a whole number of batches.
    expect(syncCalls % quick.batch).toBe(0);
    expect(asyncCalls % quick.batch).toBe(0);
    expect(asyncCalls).toBeGreaterThanOrEqual(samples.async!.length * quick.batch);
  });

  it("awaits async calls one at a time", async () => {
    let running = 0;
    let most = 0;
    await sampleTasks(
      [
        {
          name: "a",
          async: true,
          fn: async () => {
            most = Math.max(most, ++running);
            await Promise.resolve();
            running--;
          },
        },
      ],
      quick,
    );
    expect(most).toBe(1);
  });

  it("names the task that threw, and refuses duplicate names", async () => {
    await expect(
      sampleTasks(
        [
          {
            name: "broken",
            fn: () => {
              throw new Error("kaput");
            },
          },
        ],
        quick,
      ),
    ).rejects.toMatchObject({ code: "TASK_FAILED", message: expect.stringContaining("broken") });
    await expect(
      sampleTasks(
        [
          { name: "x", fn: () => 1 },
          { name: "x", fn: () => 2 },
        ],
        quick,
      ),
    ).rejects.toBeInstanceOf(BenchError);
  });
});

describe("overInputs", () => {
  it("calls the function on each input in turn, wrapping around", () => {
    const seen: number[] = [];
    const task = overInputs((x: number) => seen.push(x), [1, 2, 3]);
    for (let i = 0; i < 7; i++) task();
    expect(seen).toEqual([1, 2, 3, 1, 2, 3, 1]);
  });

  it("refuses an empty input list", () => {
    expect(() => overInputs(() => 0, [])).toThrow(BenchError);
  });
});
