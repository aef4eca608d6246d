import { describe, expect, it } from "vitest";
import type { Row } from "../row.js";
import type { SuiteContext } from "../suite.js";
import { fireHooksSuite } from "./fire-hooks.js";
import { fireNoMatchSuite } from "./fire-no-match.js";
import { matchersSuite } from "./matchers.js";
import { memorySuite } from "./memory.js";
import { otelSuite } from "./otel.js";
import { tinyProfile } from "./tiny-profile.js";

const ctx: SuiteContext = { profile: tinyProfile, log: () => undefined };

function expectSound(rows: Row[]): void {
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  for (const row of rows) {
    expect(Number.isFinite(row.ours.median), row.id).toBe(true);
    expect(row.ours.median, row.id).toBeGreaterThanOrEqual(0);
    if (row.baseline) expect(Number.isFinite(row.baseline.median), row.id).toBe(true);
    // A smoke-sized run never claims a goal was met or missed.
    expect(["unjudged", "info"], row.id).toContain(row.verdict);
  }
}

describe("in-process suites (tiny runs: the rows exist and hold numbers)", () => {
  it("fire() with no matching hook: time and allocation rows", async () => {
    const { rows, pending } = await fireNoMatchSuite.run(ctx);
    expectSound(rows);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([
      "fire.no-match.other-event",
      "fire.no-match.matchers",
      "fire.no-match.other-event.alloc",
      "fire.no-match.matchers.alloc",
      "fire.no-match.has-guard.alloc",
    ]);
    // The has() guard row measures a path that allocates nothing at all: far below fire()'s
    // smallest allocation (a promise and a result, over 100 B), with room for the stray bytes a
    // smoke-sized loop on a busy machine picks up.
    expect(rows.at(-1)!.ours.median).toBeLessThan(16);
  });

  it("fire() with 1 and 10 async hooks against the plain loop, hookable and eventemitter3, and 10 sync hooks", async () => {
    const { rows } = await fireHooksSuite.run(ctx);
    expectSound(rows);
    expect(rows.map((r) => r.id)).toEqual([
      ...[1, 10].flatMap((n) =>
        ["plain", "hookable", "eventemitter3"].map((b) => `fire.hooks-${n}.${b}`),
      ),
      "fire.sync-hooks-10.plain",
    ]);
  });

  it("every matcher kind, checked to agree with its hand-written twin before timing", async () => {
    const { rows } = await matchersSuite.run(ctx);
    expectSound(rows);
    expect(rows.map((r) => r.id)).toEqual([
      "matcher.name",
      "matcher.alternatives",
      "matcher.wildcard",
      "matcher.regex",
      "matcher.path-glob",
    ]);
  });

  it("memory: a child process fires and churns hooks, and reports the heap before and after", async () => {
    const { rows } = await memorySuite.run(ctx);
    expectSound(rows);
    expect(rows[0]!.what).toContain("2,000 `fire()`");
    expect(rows[0]!.ours.unit).toBe("B");
  });

  it("OpenTelemetry off: an instrumented engine with no SDK, and one uninstrumented, against a plain one", async () => {
    const { rows, pending } = await otelSuite.run(ctx);
    expectSound(rows);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(["otel.off.no-sdk", "otel.off.removed"]);
    for (const row of rows) expect(row.baseline?.n, row.id).toBeGreaterThan(0);
  });
});
