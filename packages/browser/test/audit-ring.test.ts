/**
 * Properties of AuditTrail's ring, fed with real records: a HookEngine's warnings, which it
 * emits synchronously, so each step of a run is one record.
 */
import { HookEngine } from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AuditTrail } from "../src/index.js";

const messages = (trail: AuditTrail) =>
  trail.records.map((r) => (r as { message: string }).message);

describe("AuditTrail's ring", () => {
  it("keeps the last min(N, L) of N records in order, and drops max(0, N − L)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 64 }), (n, limit) => {
        const engine = new HookEngine();
        using trail = new AuditTrail(engine, { limit });
        const sent = Array.from({ length: n }, (_, i) => `r${i}`);
        for (const message of sent) engine.warn(message);
        expect(messages(trail)).toEqual(sent.slice(Math.max(0, n - limit)));
        expect(trail.dropped).toBe(Math.max(0, n - limit));
      }),
    );
  });

  it("agrees with a plain list through any mix of records, reads and clears", () => {
    const step = fc.oneof(
      { weight: 8, arbitrary: fc.constant("record" as const) },
      { weight: 2, arbitrary: fc.constant("read" as const) },
      { weight: 1, arbitrary: fc.constant("clear" as const) },
    );
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 200 }),
        fc.integer({ min: 1, max: 16 }),
        (steps, limit) => {
          const engine = new HookEngine();
          using trail = new AuditTrail(engine, { limit });
          let model: string[] = [];
          let dropped = 0;
          steps.forEach((s, i) => {
            if (s === "record") {
              engine.warn(`r${i}`);
              model.push(`r${i}`);
              if (model.length > limit) {
                model.shift();
                dropped++;
              }
            } else if (s === "clear") {
              trail.clear();
              model = [];
              dropped = 0;
            } else {
              // A read in between caches a snapshot; the next record must not reuse it.
              expect(messages(trail)).toEqual(model);
            }
          });
          expect(messages(trail)).toEqual(model);
          expect(trail.dropped).toBe(dropped);
        },
      ),
    );
  });
});
