import { describe, expect, it } from "vitest";
import { createEvent } from "../events/create-event.js";
import { defer } from "../merge/hook-response.js";
import { mergeOutcomes } from "../merge/merge.js";
import { fromHookResponse, readHookResponse, toHookResponse } from "./wire-response.js";

const routing = { deciders: ["alice"], deadline: "30m", onDeadline: "allow" as const };
const call = { sessionId: "s1", tool: "Bash", args: { command: "git push" } };
const ok = (hookId: string, response: ReturnType<typeof defer>) => ({
  hookId,
  status: "ok" as const,
  response,
  failBehavior: "continue" as const,
  duration: 1,
});

describe("defer on the wire", () => {
  it("round-trips a defer with its reason and routing", () => {
    const message = fromHookResponse("h1", "e1", {
      ...defer("pushing needs a person", routing),
      systemMessage: "parked",
    });
    expect(message).toEqual({
      hookId: "h1",
      eventId: "e1",
      action: "defer",
      reason: "pushing needs a person",
      routing,
      systemMessage: "parked",
    });
    const read = readHookResponse(JSON.parse(JSON.stringify(message)));
    expect(read.success && read.data.response).toEqual({
      ...defer("pushing needs a person", routing),
      systemMessage: "parked",
    });
  });

  it("a bare defer (no reason, no routing; proto3 sends no empty field) is core's defer()", () => {
    const read = readHookResponse({ hookId: "h1", eventId: "e1", action: "defer", reason: "" });
    expect(read.success && read.data.response).toEqual(defer());
    expect(fromHookResponse("h1", "e1", defer())).toEqual({
      hookId: "h1",
      eventId: "e1",
      action: "defer",
    });
  });

  it.each([
    [{ deadline: "soon" }, /routing\.deadline/],
    [{ onDeadline: "maybe" }, /routing\.onDeadline/],
    [{ deciders: [""] }, /routing\.deciders/],
    [{ decider: ["alice"] }, /decider/],
  ])("refuses a malformed routing %j, naming the field", (bad, field) => {
    const read = readHookResponse({ hookId: "h1", eventId: "e1", action: "defer", routing: bad });
    expect(read.success).toBe(false);
    if (!read.success) {
      expect(read.error.code).toBe("INVALID_OUTPUT");
      expect(read.error.message).toMatch(field);
    }
  });

  it("refuses routing on any other action, and continue-only fields on a defer", () => {
    for (const action of ["continue", "block", "retry", "skip", "respond"] as const) {
      const read = toHookResponse({ hookId: "h1", eventId: "e1", action, reason: "r", routing });
      expect(read.success).toBe(false);
      if (!read.success) expect(read.error.message).toMatch(/^HookResponse\.routing: only a defer/);
    }
    const read = toHookResponse({
      hookId: "h1",
      eventId: "e1",
      action: "defer",
      permission: "allow",
    });
    expect(read.success).toBe(false);
    if (!read.success) expect(read.error.message).toMatch(/^HookResponse\.permission/);
  });
});

describe("only a PreToolUse answer may defer", () => {
  it("a PreToolUse defer parks the call with its routing", () => {
    const event = createEvent("PreToolUse", call);
    const result = mergeOutcomes(event, [ok("a", defer("needs a person", routing))]);
    expect(result.stopTurn).toEqual({
      hookId: "a",
      reason: "needs a person",
      deferred: true,
      routing,
    });
  });

  it("on any other event a defer is the hook's failure, under its fail behaviour", () => {
    const post = createEvent("PostToolUse", {
      ...call,
      result: { success: true, output: "o", duration: 1 },
    });
    const open = mergeOutcomes(post, [ok("a", defer("later", routing))]);
    expect(open.stopTurn).toBeUndefined();
    expect(open.action).toBe("continue");
    expect(open.outcomes[0]).toMatchObject({ status: "failed", error: { code: "INVALID_OUTPUT" } });
    expect(open.outcomes[0]!.error!.message).toMatch(/only a PreToolUse answer may defer/);
    const prompt = createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" });
    const closed = mergeOutcomes(prompt, [{ ...ok("a", defer()), failBehavior: "block" }]);
    expect(closed.action).toBe("block");
    expect(closed.stopTurn).toBeUndefined();
  });
});
