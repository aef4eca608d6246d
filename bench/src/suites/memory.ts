import { BenchError } from "../bench-error.js";
import { runChild } from "../cross/child-process.js";
import { formatBytes } from "../format.js";
import { goals, makeRow } from "../row.js";
import type { Suite } from "../suite.js";

const MB = 1_000_000;

/** 1,000,000 `fire()` while hooks come and go, in a fresh process: does the heap come back? */
export const memorySuite: Suite = {
  id: "memory",
  title: "memory",
  async run({ profile }) {
    const report = await runChild("memory-churn", {
      nodeFlags: ["--expose-gc"],
      args: ["--fires", String(profile.memoryFires)],
    });
    const { before, after, fires, registered, unregistered } = report;
    if (typeof before !== "number" || typeof after !== "number" || typeof fires !== "number") {
      throw new BenchError(
        "CHILD_FAILED",
        `memory-churn: unexpected report ${JSON.stringify(report)}`,
      );
    }
    const growth = after - before;
    return {
      rows: [
        makeRow({
          id: "memory.fire-churn",
          what: `memory: ${fires.toLocaleString("en-US")} \`fire()\`, hooks registered and removed on the way`,
          ours: { label: "heap after, full GC", unit: "B", median: after },
          baseline: { label: "heap before", unit: "B", median: before },
          goal: goals.growthBelow(5 * MB, "growth < 5 MB after GC"),
          smoke: profile.smoke,
          note: `Growth ${formatBytes(growth)}; ${String(registered)} registrations and ${String(unregistered)} removals (unregister, signal abort, once) on the way.`,
        }),
      ],
      pending: [],
    };
  },
};
