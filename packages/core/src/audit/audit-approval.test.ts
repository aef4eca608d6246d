import { describe, expect, it } from "vitest";
import { HookEngine } from "../engine/hook-engine.js";
import type { AuditEvent } from "./audit.js";
import { formatAuditRecord } from "./audit-format.js";

describe("engine.recordApproval: a deferred call's steps in the audit stream", () => {
  it("emits an approval record at level info, and none when the audit is off", () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const seen: AuditEvent[] = [];
    engine.onAudit((record) => seen.push(record));
    engine.recordApproval({
      step: "decided",
      approvalId: "a1",
      sessionId: "s1",
      tool: "Bash",
      decision: "allow",
      decidedBy: "alice",
      edited: true,
    });
    expect(seen).toEqual([
      expect.objectContaining({
        type: "approval",
        step: "decided",
        approvalId: "a1",
        decidedBy: "alice",
        edited: true,
      }),
    ]);
    expect(typeof seen[0]?.time).toBe("number");
    engine.auditLevel = "off";
    engine.recordApproval({
      step: "resumed",
      approvalId: "a1",
      sessionId: "s1",
      tool: "Bash",
      decision: "allow",
      decidedBy: "alice",
      outcome: "ran",
    });
    expect(seen).toHaveLength(1);
  });

  it("reads as one line naming the step, who decided and what became of the call", () => {
    const base = {
      time: 0,
      type: "approval" as const,
      approvalId: "a1",
      sessionId: "s",
      tool: "Bash",
    };
    expect(
      formatAuditRecord({
        ...base,
        step: "decided",
        decision: "deny",
        decidedBy: "bob",
        reason: "not today",
        edited: false,
      }),
    ).toBe("approval: decided Bash a1, deny by bob, not today");
    expect(
      formatAuditRecord({
        ...base,
        step: "resumed",
        decision: "allow",
        decidedBy: "alice",
        outcome: "ran",
      }),
    ).toBe("approval: resumed Bash a1, allow by alice, call ran");
    expect(formatAuditRecord({ ...base, step: "parked", reason: "needs a person\nnow" })).toBe(
      "approval: parked Bash a1, needs a person\\nnow",
    );
  });
});
