import { describe, expect, it } from "vitest";
import { HookError } from "../base/hook-error.js";
import { createEvent } from "../events/create-event.js";
import { normalizeHookOutput, safeNormalizeHookOutput } from "./normalize-output.js";

const event = createEvent("PreToolUse", {
  sessionId: "s",
  tool: "Bash",
  args: { command: "ls", cwd: "/x" },
});

describe("normalizeHookOutput", () => {
  it.each([
    ["nothing", undefined, { action: "continue" }],
    ["null", null, { action: "continue" }],
    ["an empty object", {}, { action: "continue" }],
    // the A3S Box hooks design
    [
      "the A3S Box hooks design block",
      { action: "block", reason: "Dangerous" },
      { action: "block", reason: "Dangerous" },
    ],
    ["the A3S Box hooks design proto enum name", { action: "SKIP" }, { action: "skip" }],
    [
      "the A3S Box hooks design retry",
      { action: "retry", retry_delay_ms: 250 },
      { action: "retry", delay: 250 },
    ],
    [
      "the A3S Box hooks design modified",
      { action: "continue", modified: { args: { timeout: 1 } } },
      { action: "continue", modified: { args: { timeout: 1 } } },
    ],
    // the hooks-system design
    [
      "the hooks-system design block",
      { continue_execution: false, stop_reason: "nope" },
      { action: "block", reason: "nope" },
    ],
    [
      "the hooks-system design allow with extras",
      {
        continue_execution: true,
        system_message: "note",
        additional_context: "ctx",
        suppress_logging: true,
      },
      { action: "continue", systemMessage: "note", additionalContext: "ctx", suppressOutput: true },
    ],
    // the implementation plan
    [
      "the implementation plan allow",
      { decision: "allow" },
      { action: "continue", permission: "allow" },
    ],
    [
      "the implementation plan deny",
      { decision: "deny", reason: "Dangerous command" },
      { action: "block", reason: "Dangerous command" },
    ],
    ["the implementation plan ask", { decision: "ask" }, { action: "continue", permission: "ask" }],
    ["the implementation plan none", { decision: "none" }, { action: "continue" }],
    // the CLI-agent hooks specification
    [
      "the CLI-agent hooks specification approve",
      { continue: true, decision: "approve", reason: "safe", metadata: { a: 1 } },
      { action: "continue", permission: "allow", permissionReason: "safe" },
    ],
    [
      "the CLI-agent hooks specification block",
      { continue: false, decision: "block", reason: "risky" },
      { action: "continue", stopTurn: { reason: "risky" } },
    ],
    [
      "the CLI-agent hooks specification modify",
      { decision: "modify", modified_args: { command: "ls -la" } },
      { action: "continue", modified: { args: { command: "ls -la" } } },
    ],
    // Claude Code
    [
      "Claude continue false",
      { continue: false, stopReason: "Build failed" },
      { action: "continue", stopTurn: { reason: "Build failed" } },
    ],
    [
      "Claude legacy decision block",
      { decision: "block", reason: "fix lint first" },
      { action: "block", reason: "fix lint first" },
    ],
    [
      "Claude PreToolUse deny",
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no rm",
        },
      },
      { action: "block", reason: "no rm" },
    ],
    [
      "Claude UserPromptSubmit context",
      {
        hookSpecificOutput: {
          hookEventName: "UserPromptSubmit",
          additionalContext: "today is Sunday",
        },
        systemMessage: "hi",
      },
      { action: "continue", additionalContext: "today is Sunday", systemMessage: "hi" },
    ],
    [
      "Claude PermissionRequest allow",
      {
        hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
      },
      { action: "continue", permission: "allow" },
    ],
    [
      "Claude continue false without a stopReason",
      { continue: false },
      { action: "continue", stopTurn: {} },
    ],
  ])("%s", (_name, input, expected) => {
    expect(normalizeHookOutput(input)).toEqual(expected);
  });

  it("applies Claude Code's updatedInput as a replacement of the arguments when the event is known", () => {
    const out = {
      hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "ls -la" } },
    };
    expect(normalizeHookOutput(out, { event })).toEqual({
      action: "continue",
      permission: "allow",
      modified: { args: { command: "ls -la", cwd: null } },
    });
    expect(normalizeHookOutput(out)).toMatchObject({ modified: { args: { command: "ls -la" } } });
    expect(normalizeHookOutput({ updated_input: { command: "pwd" } }, { event })).toMatchObject({
      modified: { args: { command: "pwd", cwd: null } },
    });
  });

  // Claude Code's hooks reference: `continue: false` stops Claude after the hooks run and takes
  // precedence over any event-specific decision; `stopReason` is shown to the user, not Claude.
  it("reads Claude Code's continue: false as the end of the turn, over any decision", () => {
    expect(
      normalizeHookOutput({
        continue: false,
        stopReason: "for the user",
        decision: "block",
        reason: "for the model",
        hookSpecificOutput: { permissionDecision: "allow", additionalContext: "ctx" },
        systemMessage: "note",
      }),
    ).toEqual({ action: "continue", stopTurn: { reason: "for the user" }, systemMessage: "note" });
  });

  // Claude Code's hooks reference: for "ask", permissionDecisionReason is shown to the user.
  it("keeps the reason of a PreToolUse ask (and allow) for the permission question", () => {
    expect(
      normalizeHookOutput({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "ask",
          permissionDecisionReason: "touches production",
        },
      }),
    ).toEqual({ action: "continue", permission: "ask", permissionReason: "touches production" });
    expect(normalizeHookOutput({ decision: "ask", reason: "why not" })).toEqual({
      action: "continue",
      permission: "ask",
      permissionReason: "why not",
    });
  });

  it("lets the most restrictive field win when dialects disagree", () => {
    expect(normalizeHookOutput({ continue: true, decision: "block", reason: "r" }).action).toBe(
      "block",
    );
    expect(
      normalizeHookOutput({
        decision: "approve",
        hookSpecificOutput: { permissionDecision: "deny" },
      }).action,
    ).toBe("block");
    expect(
      normalizeHookOutput({
        decision: "approve",
        hookSpecificOutput: { permissionDecision: "ask" },
      }),
    ).toMatchObject({
      permission: "ask",
    });
  });

  it.each([
    ["a string", "yes", "expected a JSON object, got string"],
    ["an array", [1, 2], "expected a JSON object, got an array"],
    ["a number", 7, "got number"],
    ["continue of the wrong type", { continue: "yes" }, 'continue: expected boolean, got "yes"'],
    ["an unknown decision", { decision: "maybe" }, "decision: expected one of"],
    ["an unknown action", { action: "explode" }, "action: expected one of"],
    ["a negative delay", { action: "retry", delay: -1 }, "delay"],
    [
      "a bad permissionDecision",
      { hookSpecificOutput: { permissionDecision: "perhaps" } },
      "hookSpecificOutput.permissionDecision",
    ],
    ["no recognised field", { status: "ok", foo: 1 }, "no recognised field in {status, foo}"],
  ])("refuses %s with INVALID_OUTPUT naming the field", (_name, input, message) => {
    const result = safeNormalizeHookOutput(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_OUTPUT");
    expect(result.error.message).toContain(message);
    expect(() => normalizeHookOutput(input)).toThrow(HookError);
  });

  it("keeps error messages short for huge input", () => {
    const result = safeNormalizeHookOutput({ decision: "x".repeat(1_000_000) });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message.length).toBeLessThan(300);
  });

  it("refuses output nested past the limit, or with a prototype key in the new arguments", () => {
    const event = createEvent("PreToolUse", {
      sessionId: "s",
      tool: "Bash",
      args: { command: "ls" },
    });
    const deep = JSON.parse(`{"modified":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`);
    expect(safeNormalizeHookOutput(deep, { event })).toMatchObject({
      success: false,
      error: {
        code: "LIMIT_EXCEEDED",
        message: "modified: nested more than 64 levels deep (or refers to itself)",
      },
    });
    const proto = JSON.parse(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"__proto__":{"x":1}}}}',
    );
    expect(safeNormalizeHookOutput(proto, { event })).toMatchObject({
      success: false,
      error: { message: "hookSpecificOutput.updatedInput.__proto__: this key is not allowed" },
    });
  });
});

// Claude Code's hooks reference: PreToolUse `permissionDecision: "defer"` pauses the call for a
// later decision; in non-interactive use the session ends with the call not run.
describe("permissionDecision defer", () => {
  it("is recognised, not refused: the turn stops with the call deferred", () => {
    expect(
      normalizeHookOutput({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "defer",
          permissionDecisionReason: "needs a reviewer",
        },
      }),
    ).toEqual({ action: "continue", stopTurn: { reason: "needs a reviewer", deferred: true } });
  });

  it("blocks the call in the merged result and says it was deferred", async () => {
    const { HookEngine } = await import("../engine/hook-engine.js");
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: () =>
        normalizeHookOutput({ hookSpecificOutput: { permissionDecision: "defer" } }, { event }),
    });
    const result = await engine.fire(event);
    expect(result.action).toBe("block");
    expect(result.stopTurn).toMatchObject({ deferred: true });
  });
});

// The Agent SDK's TypeScript types (PostToolUseHookSpecificOutput, SessionStartHookSpecificOutput,
// SyncHookJSONOutput) and Claude Code's changelog (2.1.121: updatedToolOutput for every tool).
describe("Claude Code's newer answer fields", () => {
  const post = (tool: string) =>
    createEvent("PostToolUse", {
      sessionId: "s",
      tool,
      args: {},
      result: { success: true, output: "SECRET=1", duration: 1 },
    });
  const specific = (fields: Record<string, unknown>) => ({
    hookSpecificOutput: { hookEventName: "PostToolUse", ...fields },
  });

  it("reads PostToolUse updatedToolOutput as the new output: a string, a tool's shape, or JSON", () => {
    const cases: [unknown, string][] = [
      ["[redacted]", "[redacted]"],
      [{ stdout: "ok", stderr: "", interrupted: false, isImage: false }, "ok"],
      [{ stdout: "ok", stderr: "warn" }, "ok\nwarn"],
      [{ type: "text", file: { filePath: "/a", content: "line" } }, "line"],
      [{ url: "u", result: "page" }, "page"],
      [{ rows: 2 }, '{"rows":2}'],
    ];
    for (const [value, text] of cases) {
      expect(
        normalizeHookOutput(specific({ updatedToolOutput: value }), { event: post("Bash") }),
      ).toEqual({ action: "continue", modified: { result: { output: text } } });
    }
  });

  it("reads updatedMCPToolOutput for MCP tools only, as Claude Code does", () => {
    const answer = specific({ updatedMCPToolOutput: "[redacted]" });
    expect(normalizeHookOutput(answer, { event: post("mcp__vault__read") })).toEqual({
      action: "continue",
      modified: { result: { output: "[redacted]" } },
    });
    expect(normalizeHookOutput(answer, { event: post("Bash") })).toEqual({ action: "continue" });
  });

  it("never refuses the fields it has no place for (terminalSequence, sessionTitle, reloadSkills, …)", () => {
    expect(normalizeHookOutput({ terminalSequence: "\u0007" })).toEqual({ action: "continue" });
    const start = createEvent("SessionStart", { sessionId: "s", source: "resume" });
    expect(
      normalizeHookOutput(
        {
          hookSpecificOutput: {
            hookEventName: "SessionStart",
            additionalContext: "resumed",
            sessionTitle: "Fix the login bug",
            initialUserMessage: "continue where we left off",
            reloadSkills: true,
          },
        },
        { event: start },
      ),
    ).toEqual({ action: "continue", additionalContext: "resumed" });
    expect(
      normalizeHookOutput(specific({ classifierContext: "the user asked for this" }), {
        event: post("Bash"),
      }),
    ).toEqual({ action: "continue" });
  });
});

// Claude Code's hooks reference has no field that answers in place of a tool (issues asking for
// one, anthropics/claude-code#48452 and #52045, were closed without it): this is A3S's own.
describe("hookSpecificOutput.a3sRespond (A3S: answer in place of the tool)", () => {
  const respondWith = (a3sRespond: unknown, extra: Record<string, unknown> = {}) => ({
    hookSpecificOutput: { hookEventName: "PreToolUse", a3sRespond, ...extra },
  });

  it("is a respond answer on PreToolUse: the model reads its output, the tool does not run", () => {
    expect(normalizeHookOutput(respondWith({ output: "cached page" }), { event })).toEqual({
      action: "respond",
      output: "cached page",
    });
    expect(
      normalizeHookOutput(
        { ...respondWith({ output: "" }), systemMessage: "served from cache" },
        { event },
      ),
    ).toEqual({ action: "respond", output: "", systemMessage: "served from cache" });
  });

  it("loses to anything that stops the call: a deny, a block, a defer, continue: false", () => {
    const deny = respondWith(
      { output: "x" },
      { permissionDecision: "deny", permissionDecisionReason: "no" },
    );
    expect(normalizeHookOutput(deny, { event })).toMatchObject({ action: "block", reason: "no" });
    expect(
      normalizeHookOutput({ decision: "block", ...respondWith({ output: "x" }) }, { event }),
    ).toMatchObject({
      action: "block",
    });
    expect(
      normalizeHookOutput(respondWith({ output: "x" }, { permissionDecision: "defer" }), { event }),
    ).toMatchObject({ action: "continue", stopTurn: { deferred: true } });
    expect(
      normalizeHookOutput({ continue: false, ...respondWith({ output: "x" }) }, { event }),
    ).toMatchObject({
      action: "continue",
      stopTurn: {},
    });
  });

  it("refuses a bad one with an error that names the field", () => {
    const cases: [unknown, string][] = [
      [{ output: 42 }, "hookSpecificOutput.a3sRespond.output"],
      [{}, "hookSpecificOutput.a3sRespond.output"],
      ["text", "hookSpecificOutput.a3sRespond"],
      [{ output: "x", exitCode: 0 }, "hookSpecificOutput.a3sRespond"],
      [{ output: "x".repeat(1_048_577) }, "hookSpecificOutput.a3sRespond.output"],
    ];
    for (const [value, field] of cases) {
      const result = safeNormalizeHookOutput(respondWith(value), { event });
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.error.code).toBe("INVALID_OUTPUT");
        expect(result.error.message).toContain(field);
      }
    }
  });

  it("is refused on any event but PreToolUse, naming the field and the event", () => {
    const post = createEvent("PostToolUse", {
      sessionId: "s",
      tool: "Bash",
      args: {},
      result: { success: true, output: "ran", duration: 1 },
    });
    const result = safeNormalizeHookOutput(
      { hookSpecificOutput: { a3sRespond: { output: "x" } } },
      { event: post },
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message).toContain("hookSpecificOutput.a3sRespond");
      expect(result.error.message).toContain("PostToolUse");
    }
  });
});
