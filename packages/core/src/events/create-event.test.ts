import { describe, expect, it } from "vitest";
import { HookError } from "../base/hook-error.js";
import { createEvent, randomId, safeCreateEvent, validateEvent } from "./create-event.js";
import { eventSchemas, type HookEventName } from "./event-schemas.js";
import {
  eventSpecs,
  hookEventNames,
  isHookEventName,
  matcherSubject,
  resolveEventName,
  snakeCase,
} from "./event-spec.js";

const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
const model = { name: "scripted" };
const tool = { tool: "Bash", args: { command: "ls" } };

/** A minimal valid init for every built-in event. */
const samples: { [K in keyof typeof eventSchemas]: Record<string, unknown> } = {
  SessionStart: { source: "startup" },
  SessionEnd: { reason: "exit" },
  UserPromptSubmit: { prompt: "hi" },
  GenerateStart: { prompt: "hi", model, tools: ["Bash"] },
  GenerateEnd: { prompt: "hi", model, response: { text: "ok", toolCalls: [], usage, duration: 5 } },
  PreToolUse: { ...tool, context: { workingDirectory: "/w", recentTools: [], tokenUsage: usage } },
  PostToolUse: { ...tool, result: { success: true, output: "a\nb", exitCode: 0, duration: 3 } },
  PostToolUseFailure: { ...tool, error: "exit 1" },
  PermissionRequest: { ...tool },
  PermissionGranted: { ...tool, decidedBy: "hook" },
  PermissionDenied: { ...tool, decidedBy: "user", reason: "no" },
  PreCompact: { trigger: "auto" },
  PostCompact: {
    trigger: "auto",
    messagesBefore: 10,
    messagesAfter: 2,
    tokensBefore: 900,
    tokensAfter: 100,
  },
  ContextWarning: { trigger: "threshold", usedTokens: 800, maxTokens: 1000, threshold: 0.8 },
  Stop: { stopHookActive: false },
  SubagentStart: { subagentId: "a1", subagentType: "general", description: "look around" },
  SubagentStop: { subagentId: "a1", subagentType: "general", success: true },
  Notification: { message: "hello", notificationType: "status" },
  SkillLoad: { skillName: "pdf" },
  SkillUnload: { skillName: "pdf" },
};

describe("the event catalogue", () => {
  it("has the 20 events of the design, each with a schema and a spec row", () => {
    expect(hookEventNames).toHaveLength(20);
    expect(Object.keys(eventSchemas)).toEqual(hookEventNames);
    expect(Object.keys(eventSpecs)).toEqual(hookEventNames);
    const blocking = hookEventNames.filter((n) => eventSpecs[n].canBlock);
    expect(blocking).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "GenerateStart",
      "PreToolUse",
      "PermissionRequest",
      "PreCompact",
      "Stop",
      "SubagentStart",
      "SkillLoad",
    ]);
  });

  it.each(Object.keys(samples) as (keyof typeof samples)[])(
    "createEvent(%s) fills the base fields and validates",
    (name) => {
      const event = createEvent(name, { sessionId: "s1", ...samples[name] } as never);
      expect(event.eventType).toBe(name);
      expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof event.timestamp).toBe("number");
      expect(event.metadata).toEqual({});
      expect(validateEvent(event).success).toBe(true);
      expect(matcherSubject(event)).toBe(
        eventSpecs[name].matcherTarget === undefined
          ? undefined
          : (matcherSubject(event) ?? "unreachable"),
      );
    },
  );

  it("keeps what the caller gave, including extra host fields", () => {
    const event = createEvent("Stop", {
      sessionId: "s",
      stopHookActive: true,
      eventId: "e1",
      timestamp: 5,
      metadata: { a: 1 },
    });
    expect(event).toMatchObject({ eventId: "e1", timestamp: 5, metadata: { a: 1 } });
    const extra = safeCreateEvent("Stop", { sessionId: "s", stopHookActive: false, hostField: 7 });
    expect(extra.success && (extra.data as unknown as { hostField: number }).hostField).toBe(7);
  });

  it("makes unique ids, even without crypto.randomUUID (insecure browser contexts)", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomId()));
    expect(ids.size).toBe(1000);
    const original = globalThis.crypto.randomUUID;
    try {
      Object.defineProperty(globalThis.crypto, "randomUUID", {
        value: undefined,
        configurable: true,
      });
      expect(randomId()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(globalThis.crypto, "randomUUID", {
        value: original,
        configurable: true,
      });
    }
  });

  it.each([
    [
      "PreToolUse",
      { sessionId: "s", tool: "", args: {} },
      "PreToolUse.tool: expected at least 1 characters",
    ],
    ["PreToolUse", { sessionId: "s", tool: "Bash" }, "PreToolUse.args: is required"],
    [
      "PostToolUse",
      { sessionId: "s", ...tool, result: { success: "yes", output: "", duration: 1 } },
      "PostToolUse.result.success: expected boolean",
    ],
    [
      "SessionStart",
      { sessionId: 42, source: "x" },
      "SessionStart.sessionId: expected string, got 42",
    ],
    ["Stop", "not an object", "expected an object"],
  ])("createEvent(%s) refuses bad fields, naming them", (name, init, message) => {
    try {
      createEvent(name as HookEventName, init as never);
      expect.unreachable();
    } catch (error) {
      expect(HookError.is(error, "INVALID_EVENT")).toBe(true);
      expect((error as Error).message).toContain(message);
    }
  });

  it("refuses unknown event names in createEvent and validateEvent", () => {
    expect(safeCreateEvent("Nope", {})).toMatchObject({
      success: false,
      error: { code: "UNKNOWN_EVENT" },
    });
    expect(validateEvent({ eventType: "Nope" })).toMatchObject({
      success: false,
      error: { code: "UNKNOWN_EVENT" },
    });
    expect(validateEvent(null)).toMatchObject({ success: false });
  });

  it("validateEvent accepts the alias and other spellings, returning the canonical name", () => {
    const base = { eventId: "e", sessionId: "s", timestamp: 1, metadata: {}, ...tool, error: "x" };
    const result = validateEvent({ ...base, eventType: "ToolError" });
    expect(result.success && result.data.eventType).toBe("PostToolUseFailure");
  });

  it("caps the size of error messages for huge input", () => {
    const result = safeCreateEvent("UserPromptSubmit", {
      sessionId: "s",
      prompt: { huge: "x".repeat(1_000_000) },
    });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message.length).toBeLessThan(300);
  });
});

describe("event names", () => {
  it("resolves PascalCase, camelCase, snake_case, lower case and the alias", () => {
    expect(resolveEventName("PreToolUse")).toBe("PreToolUse");
    expect(resolveEventName("preToolUse")).toBe("PreToolUse");
    expect(resolveEventName("pre_tool_use")).toBe("PreToolUse");
    expect(resolveEventName("PRETOOLUSE")).toBe("PreToolUse");
    expect(resolveEventName("ToolError")).toBe("PostToolUseFailure");
    expect(resolveEventName("tool_error")).toBe("PostToolUseFailure");
    expect(resolveEventName("PreToolUze")).toBeUndefined();
    expect(resolveEventName("__proto__")).toBeUndefined();
    expect(isHookEventName("toString")).toBe(false);
    expect(snakeCase("PostToolUseFailure")).toBe("post_tool_use_failure");
  });
});
