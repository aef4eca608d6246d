import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HookError } from "./hook-error.js";
import type { HookResponse } from "./hook-response.js";
import {
  fromHookResponse,
  isWireId,
  MAX_FRAME_CHARS,
  parseWireFrame,
  parseWireMessage,
  toHookResponse,
  wireSchemas,
} from "./wire.js";

function errorOf(result: { success: boolean; error?: HookError }): HookError {
  expect(result.success).toBe(false);
  return result.error!;
}

describe("parseWireFrame", () => {
  it("accepts a frame as JSON text, keeping its type and id", () => {
    const result = parseWireFrame(
      JSON.stringify({
        type: "RegisterHookRequest",
        id: "7",
        eventType: "PreToolUse",
        matcher: { tool: "Bash" },
        config: { priority: -5, timeoutMs: 3000, failBehavior: "block" },
        hookId: "h-1",
      }),
    );
    expect(result).toEqual({
      success: true,
      data: {
        type: "RegisterHookRequest",
        id: "7",
        eventType: "PreToolUse",
        matcher: { tool: "Bash" },
        config: { priority: -5, timeoutMs: 3000, failBehavior: "block" },
        hookId: "h-1",
      },
    });
  });

  it("drops fields it does not know, so newer peers can add some", () => {
    const result = parseWireFrame({ type: "UnregisterHookResponse", removed: true, future: 1 });
    expect(result).toEqual({
      success: true,
      data: { type: "UnregisterHookResponse", removed: true },
    });
  });

  it("names the field at fault", () => {
    const error = errorOf(
      parseWireFrame({ type: "HookResponse", hookId: "h", eventId: "e", action: "explode" }),
    );
    expect(error.code).toBe("INVALID_OUTPUT");
    expect(error.message).toContain("HookResponse.action");
    expect(error.message).toContain('"explode"');
    expect(error.path).toEqual(["HookResponse", "action"]);
  });

  it("refuses ids outside the safe charset", () => {
    const error = errorOf(parseWireFrame({ type: "UnregisterHookRequest", hookId: "../etc" }));
    expect(error.message).toContain("UnregisterHookRequest.hookId");
    expect(isWireId("a".repeat(100))).toBe(true);
    expect(isWireId("a".repeat(101))).toBe(false);
    expect(isWireId("")).toBe(false);
    expect(isWireId("héllo")).toBe(false);
    expect(isWireId(42)).toBe(false);
  });

  it("answers unknown types, non-objects, bad JSON and oversized text with clear errors", () => {
    expect(errorOf(parseWireFrame({ type: "Explode" })).message).toBe(
      'frame.type: unknown message type "Explode"',
    );
    expect(errorOf(parseWireFrame({ type: "__proto__" })).message).toContain(
      "unknown message type",
    );
    expect(errorOf(parseWireFrame({})).message).toContain("unknown message type null");
    expect(errorOf(parseWireFrame([1, 2])).message).toBe(
      "frame: expected a JSON object with a type",
    );
    expect(errorOf(parseWireFrame(null)).code).toBe("INVALID_OUTPUT");
    expect(errorOf(parseWireFrame("{not json")).message).toMatch(/^frame: not JSON/);
    const huge = errorOf(parseWireFrame(`"${"x".repeat(MAX_FRAME_CHARS)}"`));
    expect(huge.code).toBe("LIMIT_EXCEEDED");
    expect(errorOf(parseWireFrame({ type: "Hello", clientId: "c", id: 5 })).path).toEqual(["id"]);
  });

  it("has a schema for every message of hooks.proto", () => {
    expect(Object.keys(wireSchemas).sort()).toEqual(
      [
        "CreateSessionRequest",
        "CreateSessionResponse",
        "DestroySessionRequest",
        "DestroySessionResponse",
        "Error",
        "ExecuteToolRequest",
        "ExecuteToolResponse",
        "GenerateEvent",
        "GenerateRequest",
        "Hello",
        "HookEvent",
        "HookResponse",
        "ListHooksRequest",
        "ListHooksResponse",
        "RegisterHookRequest",
        "RegisterHookResponse",
        "UnregisterHookRequest",
        "UnregisterHookResponse",
        "Welcome",
      ].sort(),
    );
  });
});

describe("parseWireMessage", () => {
  it("reads an absent proto3 field as its zero value", () => {
    expect(parseWireMessage("ListHooksResponse", {})).toEqual({
      success: true,
      data: { hooks: [] },
    });
    expect(parseWireMessage("HookResponse", { hookId: "h", eventId: "e" })).toEqual({
      success: true,
      data: { hookId: "h", eventId: "e", action: "continue" },
    });
    expect(parseWireMessage("ExecuteToolResponse", {})).toEqual({
      success: true,
      data: { success: false, output: "", durationMs: 0 },
    });
  });

  it("takes exactly one of progress and result in a GenerateEvent", () => {
    expect(parseWireMessage("GenerateEvent", { result: { text: "done" } }).success).toBe(true);
    expect(parseWireMessage("GenerateEvent", { progress: { kind: "text" } }).success).toBe(true);
    expect(parseWireMessage("GenerateEvent", { nothing: true }).success).toBe(false);
  });

  it("checks a HookEvent's payload is an object", () => {
    const base = {
      hookId: "h",
      eventType: "PreToolUse",
      sessionId: "s",
      timestamp: 1,
      eventId: "e",
    };
    expect(parseWireMessage("HookEvent", { ...base, deadlineMs: 2, payload: {} }).success).toBe(
      true,
    );
    const error = errorOf(parseWireMessage("HookEvent", { ...base, deadlineMs: 2, payload: [] }));
    expect(error.message).toContain("HookEvent.payload");
  });
});

describe("toHookResponse", () => {
  const ids = { hookId: "h", eventId: "e" };

  it("maps each action and its fields", () => {
    expect(
      toHookResponse({
        ...ids,
        action: "continue",
        modified: { args: { timeout: 1 } },
        permission: "ask",
        additionalContext: "ctx",
        systemMessage: "hi",
        suppressOutput: true,
      }),
    ).toEqual({
      success: true,
      data: {
        action: "continue",
        modified: { args: { timeout: 1 } },
        permission: "ask",
        additionalContext: "ctx",
        systemMessage: "hi",
        suppressOutput: true,
      },
    });
    expect(toHookResponse({ ...ids, action: "block", reason: "no" }).success).toBe(true);
    expect(toHookResponse({ ...ids, action: "retry", retryDelayMs: 250 })).toEqual({
      success: true,
      data: { action: "retry", delay: 250 },
    });
    expect(toHookResponse({ ...ids, action: "skip" })).toEqual({
      success: true,
      data: { action: "skip" },
    });
  });

  it("turns a reported handler error into HANDLER_FAILED", () => {
    const error = errorOf(toHookResponse({ ...ids, action: "block", error: "boom" }));
    expect(error.code).toBe("HANDLER_FAILED");
    expect(error.message).toBe("boom");
  });

  it("refuses a block without a reason, and continue-only fields on other actions", () => {
    const noReason = errorOf(toHookResponse({ ...ids, action: "block" }));
    expect(noReason.code).toBe("INVALID_OUTPUT");
    expect(noReason.message).toContain("HookResponse.reason");
    const patchOnBlock = errorOf(
      toHookResponse({ ...ids, action: "block", reason: "r", modified: { args: {} } }),
    );
    expect(patchOnBlock.message).toContain("HookResponse.modified");
    expect(errorOf(toHookResponse({ ...ids, action: "skip", permission: "allow" })).path).toEqual([
      "HookResponse",
      "permission",
    ]);
  });

  it("round-trips every response through the wire form", () => {
    const text = fc.string({ minLength: 1, maxLength: 20 });
    const extra = fc.record(
      { systemMessage: text, suppressOutput: fc.constant(true) },
      { requiredKeys: [] },
    );
    const response: fc.Arbitrary<HookResponse> = fc.oneof(
      fc
        .tuple(
          fc.record(
            {
              modified: fc.dictionary(fc.constantFrom("a", "b"), fc.jsonValue()),
              permission: fc.constantFrom("allow" as const, "ask" as const),
              additionalContext: text,
            },
            { requiredKeys: [] },
          ),
          extra,
        )
        .map(([r, e]) => ({ action: "continue" as const, ...r, ...e })),
      fc.tuple(text, extra).map(([reason, e]) => ({ action: "block" as const, reason, ...e })),
      fc
        .tuple(fc.record({ delay: fc.nat(), reason: text }, { requiredKeys: [] }), extra)
        .map(([r, e]) => ({ action: "retry" as const, ...r, ...e })),
      extra.map((e) => ({ action: "skip" as const, ...e })),
    );
    fc.assert(
      fc.property(response, (r) => {
        // Compare as JSON: what crosses a wire, and blind to -0 versus 0.
        const json = (value: unknown) => JSON.parse(JSON.stringify(value));
        const back = toHookResponse(json(fromHookResponse("h", "e", r)));
        expect(json(back)).toEqual({ success: true, data: json(r) });
      }),
      { numRuns: 300 },
    );
  });
});
