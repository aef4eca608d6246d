/**
 * Remote hooks under load: one client process answering every firing of 20 concurrent
 * sessions, each answer matched to its own firing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { bash, Harness } from "./fixtures/processes.js";

const run = new Harness();
afterEach(() => run.stop());

describe("remote hooks under load", () => {
  it("answers 1,000 events from 20 concurrent sessions, none lost or answered twice", {
    timeout: 60_000,
  }, async () => {
    const h = await run.host();
    const c = await run.client(h, [
      { event: "PreToolUse", behavior: { kind: "modify", patch: { args: { echo: "$eventId" } } } },
    ]);
    const events = Array.from({ length: 1000 }, (_, i) => ({
      event: "PreToolUse",
      init: { ...bash(`echo ${i}`, `session-${i % 20}`), eventId: `e-${i}` },
    }));
    const results = await h.fireMany(events, 20);
    expect(results).toHaveLength(1000);
    for (const [i, r] of results.entries()) {
      expect(r.outcomes[0]?.status).toBe("ok");
      // Each firing got its own answer: the echo carries its own event id.
      expect(r.args).toEqual({ command: `echo ${i}`, echo: `e-${i}` });
    }
    await c.waitFor(() => c.invocations().length >= 1000);
    const invoked = c.invocations().map((m) => String(m.eventId));
    expect(invoked).toHaveLength(1000);
    expect(new Set(invoked).size).toBe(1000);
    expect(
      h.messages.filter(
        (m) => m.type === "hub" && (m.event as { type: string }).type === "warning",
      ),
    ).toEqual([]);
  });
});
