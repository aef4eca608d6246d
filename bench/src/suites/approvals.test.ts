import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Row } from "../row.js";
import type { SuiteContext } from "../suite.js";
import {
  approvalsSuite,
  CONTEXT_MESSAGES,
  conversation,
  deferredCall,
  PARK_GOAL_NS,
  postgresMissing,
  RESUME_GOAL_NS,
} from "./approvals.js";
import { tinyProfile } from "./tiny-profile.js";

// Verdicts judged, as in a full run: a goal must be decided on what the suite really returns.
const judged: SuiteContext = { profile: { ...tinyProfile, smoke: false }, log: () => undefined };

/** As test-support/postgres-server.ts looks for the server's programs. */
const postgresInstalled = ["17", "16", "15", "14", "13"].some((major) =>
  existsSync(`/usr/lib/postgresql/${major}/bin/pg_ctl`),
);

describe("approvals that wait (a tiny run, a real PGlite folder and PostgreSQL server)", () => {
  it("parks a typical deferred call: Bash, with a conversation of 20 messages to resume", () => {
    const context = conversation();
    expect(context).toHaveLength(CONTEXT_MESSAGES);
    const call = deferredCall(1, context);
    expect(call).toMatchObject({ toolName: "Bash", context: { messages: context } });
    // A realistic conversation, not a token one: several KB of JSON.
    expect(JSON.stringify(call.context).length).toBeGreaterThan(4000);
  });

  it("lists the PostgreSQL rows as pending, with no number, when PostgreSQL is not installed", () => {
    const missing = postgresMissing(new Error("PostgreSQL is not installed (no pg_ctl): …"));
    expect(missing?.map((p) => p.id)).toEqual([
      "approvals.park.postgres",
      "approvals.resume.postgres",
    ]);
    for (const p of missing!) {
      expect(p.reason).toMatch(/^PostgreSQL is not installed/);
      expect(p.goal).not.toBe("–");
      expect(p.baseline).toBeUndefined();
    }
    // Any other failure to start the server fails the run: it must not hide as "pending".
    expect(postgresMissing(new Error("initdb: could not create directory"))).toBeUndefined();
  });

  it("gives every row both sides, alternated, with the goals judged on them", async () => {
    const { rows, pending } = await approvalsSuite.run(judged);
    const embedded = ["approvals.park.pglite", "approvals.resume.pglite"];
    const postgres = ["approvals.park.postgres", "approvals.resume.postgres"];
    if (postgresInstalled) {
      expect(pending).toEqual([]);
      expect(rows.map((r) => r.id)).toEqual([...embedded, ...postgres]);
    } else {
      // Said so, with no number, and the embedded rows still measured.
      expect(rows.map((r) => r.id)).toEqual(embedded);
      expect(pending.map((p) => p.id)).toEqual(postgres);
      for (const p of pending) expect(p.reason).toMatch(/PostgreSQL is not installed/);
    }
    for (const row of rows as Row[]) {
      // Alternated call by call: both sides have the same number of samples.
      expect(row.ours.n).toBe(tinyProfile.approvals);
      expect(row.baseline!.n).toBe(tinyProfile.approvals);
      expect(row.ours.unit).toBe("ns");
      // Each side did real I/O (over 10 µs) and none hung (under 5 s).
      for (const s of [row.ours, row.baseline!]) {
        expect(s.median).toBeGreaterThan(10_000);
        expect(s.median).toBeLessThan(5e9);
      }
      expect(row.ratio).toBe(row.ours.median / row.baseline!.median);
      // The verdict is the goal's own, decided on the median the row reports.
      const limit = row.id.startsWith("approvals.park.") ? PARK_GOAL_NS : RESUME_GOAL_NS;
      expect(row.verdict).toBe(row.ours.median < limit ? "met" : "missed");
    }
  }, 240_000);
});
