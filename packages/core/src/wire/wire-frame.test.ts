import { describe, expect, it } from "vitest";
import type { HookError } from "../base/hook-error.js";
import { isWireId, wireSchemas } from "./wire.js";
import { MAX_FRAME_CHARS, parseWireFrame, parseWireMessage, WS_CLOSE_CODES } from "./wire-frame.js";

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
        "Cancel",
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

describe("the Cancel frame", () => {
  it("names the call it cancels by the frame id", () => {
    expect(parseWireFrame('{"type":"Cancel","id":"2"}')).toEqual({
      success: true,
      data: { type: "Cancel", id: "2" },
    });
  });

  it("needs an id of at most 128 characters, and says which field is wrong", () => {
    expect(errorOf(parseWireFrame({ type: "Cancel" })).message).toMatch(/^Cancel\.id: /);
    expect(errorOf(parseWireFrame({ type: "Cancel", id: 7 })).path).toEqual(["id"]);
    const long = errorOf(parseWireFrame({ type: "Cancel", id: "x".repeat(129) }));
    expect(long).toMatchObject({ code: "INVALID_OUTPUT", path: ["id"] });
    expect(parseWireFrame({ type: "Cancel", id: "x".repeat(128) }).success).toBe(true);
  });
});

describe("WS_CLOSE_CODES", () => {
  it("keeps RFC 6455's codes where they fit and the 4xxx range for the endpoint's own", () => {
    const codes = Object.values(WS_CLOSE_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code === 1000 || code === 1001 || code === 1003 || code === 1011 || code >= 4000).toBe(
        true,
      );
      // A close code above 4999 is not allowed on the wire at all.
      expect(code).toBeLessThan(5000);
    }
    expect(WS_CLOSE_CODES).toMatchObject({ unauthenticated: 4401, forbiddenOrigin: 4403 });
    expect(Object.isFrozen(WS_CLOSE_CODES)).toBe(true);
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

describe("JSON limits on the wire", () => {
  const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const answer = (modified: string) =>
    `{"type":"HookResponse","hookId":"h","eventId":"e","action":"continue","modified":${modified}}`;

  it("refuses a HookResponse whose modified is 100 000 levels deep, naming the field", () => {
    for (const result of [
      parseWireFrame(answer(deepJson(100_000))),
      parseWireMessage("HookResponse", JSON.parse(answer(deepJson(100_000)))),
    ]) {
      const error = errorOf(result);
      expect(error.code).toBe("LIMIT_EXCEEDED");
      expect(error.message).toBe("HookResponse.modified: nested more than 64 levels deep");
    }
    expect(parseWireFrame(answer(deepJson(64))).success).toBe(true);
  });

  it("refuses __proto__ in modified at the top level as well as nested", () => {
    for (const modified of ['{"__proto__":{"x":1}}', '{"args":{"__proto__":{"x":1}}}']) {
      const error = errorOf(parseWireMessage("HookResponse", JSON.parse(answer(modified))));
      expect(error.message).toMatch(
        /^HookResponse\.modified(\.args)?\.__proto__: this key is not allowed$/,
      );
    }
  });

  it("refuses any other client message nested too deep", () => {
    const request = `{"type":"ExecuteToolRequest","sessionId":"s","tool":"Bash","args":${deepJson(1000)}}`;
    expect(errorOf(parseWireFrame(request)).message).toBe(
      "ExecuteToolRequest.args: nested more than 64 levels deep",
    );
  });
});
