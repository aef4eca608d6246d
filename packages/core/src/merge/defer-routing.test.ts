import { describe, expect, it } from "vitest";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import type { PreToolUseEvent } from "../events/event-schemas.js";
import { combineRoutings, type DeferRouting, deferDeadlineMs } from "./defer-routing.js";
import { block, checkHookResponse, defer, type HookResponse } from "./hook-response.js";
import { mergeOutcomes, type OutcomeInput } from "./merge.js";
import { normalizeHookOutput, safeNormalizeHookOutput } from "./normalize-output.js";

const event: PreToolUseEvent = createEvent("PreToolUse", {
  sessionId: "s",
  tool: "Bash",
  args: { command: "git push" },
});

const ok = (hookId: string, response: HookResponse): OutcomeInput => ({
  hookId,
  status: "ok",
  response,
  failBehavior: "continue",
  duration: 1,
});

describe("deferDeadlineMs", () => {
  it("reads seconds, minutes, hours and days", () => {
    expect(deferDeadlineMs("90s")).toBe(90_000);
    expect(deferDeadlineMs("30m")).toBe(1_800_000);
    expect(deferDeadlineMs("2h")).toBe(7_200_000);
    expect(deferDeadlineMs("7d")).toBe(604_800_000);
    expect(deferDeadlineMs("366d")).toBe(366 * 86_400_000);
  });

  it("refuses clock times, zero, signs, spaces, fractions and anything past 366 days", () => {
    for (const text of ["2026-01-01T00:00:00Z", "0m", "-5m", "5 m", "1.5h", "5", "m", "367d"]) {
      expect(deferDeadlineMs(text), text).toBeUndefined();
    }
  });
});

describe("combineRoutings: every deferring hook's condition holds", () => {
  const both = (a: DeferRouting | undefined, b: DeferRouting | undefined) => {
    const combined = combineRoutings(a, b);
    if ("refused" in combined) throw new Error(combined.refused);
    return combined.routing;
  };

  it("intersects deciders; a hook without deciders does not narrow them", () => {
    expect(both({ deciders: ["alice", "bob"] }, { deciders: ["bob", "carol"] })).toEqual({
      deciders: ["bob"],
    });
    expect(both({ deciders: ["alice"] }, { deadline: "1h" })).toEqual({
      deciders: ["alice"],
      deadline: "1h",
      onDeadline: "deny",
    });
    expect(both({ deciders: [] }, { deciders: ["bob"] })).toEqual({ deciders: ["bob"] });
    expect(both(undefined, { deciders: ["bob"] })).toEqual({ deciders: ["bob"] });
  });

  it("refuses, naming both lists, when the deciders have no name in common", () => {
    const combined = combineRoutings({ deciders: ["alice"] }, { deciders: ["bob"] });
    expect(combined).toEqual({
      refused: "the hooks that deferred this call name no decider in common (alice and bob)",
    });
  });

  it("keeps the shortest deadline, whatever its unit", () => {
    expect(both({ deadline: "2h" }, { deadline: "90m" })?.deadline).toBe("90m");
    expect(both({ deadline: "1d" }, { deadline: "86401s" })?.deadline).toBe("1d");
    expect(both({ deadline: "1d" }, {})?.deadline).toBe("1d");
  });

  it("lets the deadline allow only when every hook that gave one says allow", () => {
    const allow: DeferRouting = { deadline: "1h", onDeadline: "allow" };
    expect(both(allow, { deadline: "2h", onDeadline: "allow" })?.onDeadline).toBe("allow");
    expect(both(allow, { deadline: "2h" })?.onDeadline).toBe("deny");
    expect(both(allow, { onDeadline: "deny" })?.onDeadline).toBe("deny");
    expect(both(allow, { deciders: ["bob"] })?.onDeadline).toBe("allow");
  });
});

describe("defer with routing through the merge", () => {
  it("keeps one hook's routing on the result's stopTurn", () => {
    const result = mergeOutcomes(event, [
      ok("a", defer("pushing needs a person", { deciders: ["alice"], deadline: "30m" })),
    ]);
    expect(result).toMatchObject({ action: "block", permission: "deny" });
    expect(result.stopTurn).toEqual({
      hookId: "a",
      reason: "pushing needs a person",
      deferred: true,
      routing: { deciders: ["alice"], deadline: "30m" },
    });
  });

  it("combines several deferring hooks' routings and reasons", () => {
    const result = mergeOutcomes(event, [
      ok("a", defer("pushes need a person", { deciders: ["alice", "bob"], deadline: "2h" })),
      ok("b", { action: "continue", permission: "ask" }),
      ok("c", defer("main is protected", { deciders: ["bob"], deadline: "30m" })),
    ]);
    expect(result.stopTurn).toEqual({
      hookId: "a",
      reason: "pushes need a person\nmain is protected",
      deferred: true,
      routing: { deciders: ["bob"], deadline: "30m", onDeadline: "deny" },
    });
    expect(result.outcomes.map((o) => o.ignored ?? false)).toEqual([false, false, false]);
  });

  it("lets a block after the defer win (deny > defer), with no deferred stop left", () => {
    const result = mergeOutcomes(event, [
      ok("a", defer("needs a person", { deciders: ["alice"] })),
      ok("b", block("never on a Friday")),
    ]);
    expect(result).toMatchObject({
      action: "block",
      reason: "never on a Friday",
      blockedBy: "b",
    });
    expect(result.stopTurn).toBeUndefined();
  });

  it("lets a block before the defer win too", () => {
    const result = mergeOutcomes(event, [ok("a", block("no")), ok("b", defer("later"))]);
    expect(result).toMatchObject({ action: "block", reason: "no", blockedBy: "a" });
    expect(result.stopTurn).toBeUndefined();
  });

  it("blocks a call whose deferring hooks name no decider in common", () => {
    const result = mergeOutcomes(event, [
      ok("a", defer(undefined, { deciders: ["alice"] })),
      ok("b", defer(undefined, { deciders: ["bob"] })),
    ]);
    expect(result).toMatchObject({ action: "block", blockedBy: "b" });
    expect(result.reason).toContain("no decider in common");
    expect(result.stopTurn).toBeUndefined();
  });

  it("gives way to a later continue: false, which outranks everything", () => {
    const result = mergeOutcomes(event, [
      ok("a", defer("needs a person")),
      ok("b", { action: "continue", stopTurn: { reason: "out of budget" } }),
    ]);
    expect(result.stopTurn).toEqual({ hookId: "b", reason: "out of budget" });
  });

  it("wins over a retry, an ask and an allow", () => {
    const result = mergeOutcomes(event, [
      ok("a", { action: "retry", delay: 5 }),
      ok("b", { action: "continue", permission: "allow" }),
      ok("c", defer("needs a person")),
    ]);
    expect(result).toMatchObject({ action: "block", stopTurn: { hookId: "c", deferred: true } });
  });

  it("is the same whether the engine runs the hooks in parallel or in sequence", async () => {
    for (const mode of ["parallel", "sequential"] as const) {
      const engine = new HookEngine({ mode });
      engine.register({
        event: "PreToolUse",
        handler: () => defer("first", { deciders: ["alice", "bob"] }),
      });
      engine.register({
        event: "PreToolUse",
        handler: () => defer("second", { deciders: ["bob"], deadline: "1h", onDeadline: "allow" }),
      });
      const result = await engine.fire(event);
      expect(result.stopTurn?.routing, mode).toEqual({
        deciders: ["bob"],
        deadline: "1h",
        onDeadline: "allow",
      });
    }
  });
});

describe("routing in a TypeScript hook's answer", () => {
  it("is checked, naming the field", () => {
    const bad = checkHookResponse({
      action: "continue",
      stopTurn: { deferred: true, routing: { deadline: "tomorrow" } },
    });
    expect(bad).toMatchObject({ code: "INVALID_OUTPUT" });
    expect((bad as Error).message).toContain("response.stopTurn.routing.deadline");
    const typo = checkHookResponse({
      action: "continue",
      stopTurn: { deferred: true, routing: { decider: ["alice"] } },
    });
    expect((typo as Error).message).toContain("decider");
  });
});

// Claude Code's `defer` carries a reason only; `a3sRouting` rides beside it in
// hookSpecificOutput, where agents that do not know it ignore it.
describe("hookSpecificOutput.a3sRouting in a command or HTTP hook's JSON", () => {
  const output = (a3sRouting: unknown) => ({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "defer",
      permissionDecisionReason: "pushing needs a person",
      a3sRouting,
    },
  });

  it("becomes the deferred stop's routing", () => {
    expect(
      normalizeHookOutput(output({ deciders: ["alice"], deadline: "30m", onDeadline: "allow" })),
    ).toEqual({
      action: "continue",
      stopTurn: {
        reason: "pushing needs a person",
        deferred: true,
        routing: { deciders: ["alice"], deadline: "30m", onDeadline: "allow" },
      },
    });
  });

  it("is refused, naming the field, when it is malformed", () => {
    const cases: [unknown, string][] = [
      [{ deadline: "2026-12-01T10:00:00Z" }, "hookSpecificOutput.a3sRouting.deadline"],
      [{ deciders: "alice" }, "hookSpecificOutput.a3sRouting.deciders"],
      [{ deciders: [""] }, "hookSpecificOutput.a3sRouting.deciders[0]"],
      [{ onDeadline: "maybe" }, "hookSpecificOutput.a3sRouting.onDeadline"],
      [{ whom: ["alice"] }, "whom"],
    ];
    for (const [routing, field] of cases) {
      const result = safeNormalizeHookOutput(output(routing), { event });
      expect(result.success, JSON.stringify(routing)).toBe(false);
      if (!result.success) expect(result.error.message).toContain(field);
    }
  });

  it("means nothing without a defer: an allow stays an allow", () => {
    expect(
      normalizeHookOutput({
        hookSpecificOutput: { permissionDecision: "allow", a3sRouting: { deciders: ["alice"] } },
      }),
    ).toEqual({ action: "continue", permission: "allow" });
  });
});
