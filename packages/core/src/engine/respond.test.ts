import { describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "../audit/audit.js";
import { createEvent } from "../events/create-event.js";
import type { HookEvent } from "../events/event-schemas.js";
import {
  block,
  defer,
  MAX_RESPOND_OUTPUT_CHARS,
  respond,
  safeParseHookResponse,
} from "../merge/hook-response.js";
import { mergeOutcomes } from "../merge/merge.js";
import {
  fromHookResponse,
  readHookResponse,
  sendableAnswer,
  toHookResponse,
} from "../wire/wire-response.js";
import { HookEngine } from "./hook-engine.js";
import { runTool } from "./tool-guard.js";

const call = { sessionId: "s1", tool: "WebFetch", args: { url: "https://example.com" } };
const ok = (hookId: string, response: ReturnType<typeof respond> | ReturnType<typeof block>) => ({
  hookId,
  status: "ok" as const,
  response,
  failBehavior: "continue" as const,
  duration: 1,
});

describe("respond: a PreToolUse hook answers in place of the tool", () => {
  it("runTool never runs the tool nor authorize; PostToolUse and the caller see the hook's output", async () => {
    const engine = new HookEngine();
    const seen: HookEvent[] = [];
    engine.register({ event: "PostToolUse", handler: (e) => void seen.push(e) });
    engine.register({
      event: "PreToolUse",
      matcher: "WebFetch",
      handler: () => respond("cached page"),
    });
    const execute = vi.fn(async () => ({ output: "live page" }));
    const authorize = vi.fn(() => undefined);
    const result = await runTool(engine, call, execute, { authorize });
    expect(execute).not.toHaveBeenCalled();
    expect(authorize).not.toHaveBeenCalled();
    expect(result.output).toBe("cached page");
    expect(result.success).toBe(true);
    expect(result.pre.respond).toMatchObject({ output: "cached page" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ eventType: "PostToolUse", result: { output: "cached page" } });
  });

  it("a hook whose matcher does not fit the tool cannot answer for it", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", matcher: "Read", handler: () => respond("not yours") });
    const execute = vi.fn(async () => ({ output: "live page" }));
    const result = await runTool(engine, call, execute);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.output).toBe("live page");
  });

  it("merges as a block for hosts that do not read `respond`, and ends the fold", () => {
    const event = createEvent("PreToolUse", call);
    const result = mergeOutcomes(event, [ok("a", respond("x")), ok("b", block("later"))]);
    expect(result).toMatchObject({
      action: "block",
      blockedBy: "a",
      respond: { hookId: "a", output: "x" },
    });
    expect(result.outcomes[0]).toMatchObject({ action: "respond" });
    expect(result.outcomes[1]).toMatchObject({ ignored: true });
  });

  it("an earlier block wins over a later respond, as order decides", () => {
    const event = createEvent("PreToolUse", call);
    const result = mergeOutcomes(event, [ok("a", block("no")), ok("b", respond("x"))]);
    expect(result.action).toBe("block");
    expect(result.reason).toBe("no");
    expect(result.respond).toBeUndefined();
  });

  it("a respond after a defer wins, as a block does; a defer after a respond is not read", () => {
    const event = createEvent("PreToolUse", call);
    const deferFirst = mergeOutcomes(event, [
      { ...ok("a", respond("x")), response: defer("a person decides") },
      ok("b", respond("x")),
    ]);
    expect(deferFirst).toMatchObject({ action: "block", respond: { hookId: "b", output: "x" } });
    expect(deferFirst.stopTurn).toBeUndefined();
    const respondFirst = mergeOutcomes(event, [
      ok("a", respond("x")),
      { ...ok("b", respond("x")), response: defer("a person decides") },
    ]);
    expect(respondFirst).toMatchObject({ action: "block", respond: { hookId: "a", output: "x" } });
    expect(respondFirst.stopTurn).toBeUndefined();
  });

  it("on any other event a respond is the hook's failure, under its fail behaviour", () => {
    const event = createEvent("PostToolUse", {
      ...call,
      result: { success: true, output: "o", duration: 1 },
    });
    const open = mergeOutcomes(event, [ok("a", respond("x"))]);
    expect(open.respond).toBeUndefined();
    expect(open.action).toBe("continue");
    expect(open.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_OUTPUT" },
    });
    expect(open.outcomes[0]!.error!.message).toMatch(/only a PreToolUse answer may respond/);
    const prompt = createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" });
    const closed = mergeOutcomes(prompt, [{ ...ok("a", respond("x")), failBehavior: "block" }]);
    expect(closed.action).toBe("block");
    expect(closed.respond).toBeUndefined();
  });

  it("audits who answered and how long the answer was, not its text", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const records: AuditEvent[] = [];
    engine.onAudit((r) => records.push(r));
    const hook = engine.register({ event: "PreToolUse", handler: () => respond("secret") });
    await runTool(engine, call, async () => ({ output: "live" }));
    const responded = records.filter((r) => r.type === "responded");
    expect(responded).toEqual([
      expect.objectContaining({ hookId: hook.id, event: "PreToolUse", outputLength: 6 }),
    ]);
    expect(records.some((r) => r.type === "blocked")).toBe(false);
    expect(JSON.stringify(records)).not.toContain("secret");
  });

  it("checks the answer: output must be a string within the size cap", () => {
    const bad = safeParseHookResponse({ action: "respond", output: 3 });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.message).toMatch(/output/);
    const big = safeParseHookResponse(respond("x".repeat(MAX_RESPOND_OUTPUT_CHARS + 1)));
    expect(big.success).toBe(false);
    if (!big.success) expect(big.error.message).toMatch(/output/);
  });
});

describe("respond on the wire", () => {
  it("round-trips through the wire form", () => {
    const message = fromHookResponse(
      "h1",
      "e1",
      respond("cached", { systemMessage: "from cache" }),
    );
    expect(message).toEqual({
      hookId: "h1",
      eventId: "e1",
      action: "respond",
      output: "cached",
      systemMessage: "from cache",
    });
    const read = readHookResponse(JSON.parse(JSON.stringify(message)));
    expect(read.success && read.data.response).toEqual({
      action: "respond",
      output: "cached",
      systemMessage: "from cache",
    });
  });

  it("an empty output is an empty tool result (proto3 sends no field for it)", () => {
    const read = readHookResponse({ hookId: "h1", eventId: "e1", action: "respond" });
    expect(read.success && read.data.response).toEqual({ action: "respond", output: "" });
  });

  it("refuses output on any other action, naming the field", () => {
    for (const action of ["continue", "block", "retry", "skip"] as const) {
      const read = toHookResponse({
        hookId: "h1",
        eventId: "e1",
        action,
        reason: "r",
        output: "o",
      });
      expect(read.success).toBe(false);
      if (!read.success) {
        expect(read.error.code).toBe("INVALID_OUTPUT");
        expect(read.error.message).toMatch(/^HookResponse\.output: only a respond/);
      }
    }
  });

  it("refuses an output past the cap when read and when sent", () => {
    const output = "x".repeat(MAX_RESPOND_OUTPUT_CHARS + 1);
    const read = readHookResponse({ hookId: "h1", eventId: "e1", action: "respond", output });
    expect(read.success).toBe(false);
    const sent = sendableAnswer({ hookId: "h1", eventId: "e1", action: "respond", output });
    expect(sent.success).toBe(false);
    if (!sent.success) {
      expect(sent.error.code).toBe("LIMIT_EXCEEDED");
      expect(sent.error.message).toMatch(/^HookResponse\.output/);
    }
    const fits = sendableAnswer({ hookId: "h1", eventId: "e1", action: "respond", output: "ok" });
    expect(fits.success).toBe(true);
  });

  it("a respond carries no modification", () => {
    const read = toHookResponse({
      hookId: "h1",
      eventId: "e1",
      action: "respond",
      output: "o",
      modified: { args: {} },
    });
    expect(read.success).toBe(false);
    if (!read.success) expect(read.error.message).toMatch(/HookResponse\.modified/);
  });
});
