import { describe, expect, it } from "vitest";
import { loadHooksProto } from "./hooks-proto.js";
import { convertFromProto, fromProto, toProto } from "./wire-codec.js";

/** Serialise with the real protobuf definitions, as the wire would. */
function overTheWire(
  service: "HookService" | "AgentService",
  method: string,
  side: "request" | "response",
  value: object,
) {
  const definition = loadHooksProto()[service][method]!;
  return side === "request"
    ? definition.requestDeserialize(definition.requestSerialize(value))
    : definition.responseDeserialize(definition.responseSerialize(value));
}

describe("wire codec", () => {
  it("round-trips a HookResponse: enums as words, JSON bytes as objects", () => {
    const message = {
      hookId: "h",
      eventId: "e",
      action: "continue" as const,
      modified: { args: { timeout: 30000 } },
      permission: "ask" as const,
      suppressOutput: true,
    };
    const decoded = overTheWire(
      "HookService",
      "HookStream",
      "request",
      toProto("HookResponse", message),
    );
    expect(fromProto("HookResponse", decoded)).toEqual({ success: true, data: message });
  });

  it("reads proto3 zero values as absent or zero", () => {
    const decoded = overTheWire("HookService", "HookStream", "request", {
      hookId: "h",
      eventId: "e",
    });
    expect(fromProto("HookResponse", decoded)).toEqual({
      success: true,
      data: { hookId: "h", eventId: "e", action: "continue" },
    });
    const config = overTheWire("HookService", "RegisterHook", "request", {
      eventType: "Stop",
      config: { failBehavior: "FAIL_BEHAVIOR_UNSPECIFIED" },
    });
    expect(convertFromProto("RegisterHookRequest", config)).toEqual({
      eventType: "Stop",
      config: {},
    });
  });

  it("names a JSON field that does not parse", () => {
    const decoded = overTheWire("HookService", "HookStream", "request", {
      hookId: "h",
      eventId: "e",
      modified: Buffer.from("{not json"),
    });
    const result = fromProto("HookResponse", decoded);
    expect(result.success).toBe(false);
    expect(!result.success && result.error.message).toMatch(
      /^HookResponse\.modified: not valid UTF-8 JSON/,
    );
  });

  it("names an enum value this build does not know", () => {
    const decoded = overTheWire("HookService", "HookStream", "request", {
      hookId: "h",
      eventId: "e",
      action: 9,
    });
    const result = fromProto("HookResponse", decoded);
    expect(!result.success && result.error.message).toContain("HookResponse.action");
  });

  it("carries a Generate result and nested usage", () => {
    const event = {
      result: { text: "done", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
    };
    const decoded = overTheWire(
      "AgentService",
      "Generate",
      "response",
      toProto("GenerateEvent", event),
    );
    expect(fromProto("GenerateEvent", decoded)).toEqual({ success: true, data: event });
  });
});

describe("HookEvent from protobuf", () => {
  it("reads a real HookEvent: JSON payload bytes as an object, every field as sent", () => {
    const payload = { eventType: "PreToolUse", args: { command: "ls" } };
    const decoded = overTheWire("HookService", "HookStream", "response", {
      hookId: "h",
      eventType: "PreToolUse",
      sessionId: "s",
      timestamp: 1_700_000_000_000,
      payload: Buffer.from(JSON.stringify(payload)),
      eventId: "e",
      deadlineMs: 1_700_000_005_000,
    });
    const checked = fromProto("HookEvent", decoded);
    expect(checked).toEqual({
      success: true,
      data: {
        hookId: "h",
        eventType: "PreToolUse",
        sessionId: "s",
        timestamp: 1_700_000_000_000,
        payload,
        eventId: "e",
        deadlineMs: 1_700_000_005_000,
      },
    });
  });
});

describe("wire codec with hostile values", () => {
  it("reads an enum value named like an Object method as unknown, named by the schema", () => {
    const result = fromProto("HookResponse", { hookId: "h", eventId: "e", action: "constructor" });
    expect(!result.success && result.error.message).toContain("HookResponse.action");
    expect(
      toProto("HookResponse", { hookId: "h", eventId: "e", action: "toString" as never }),
    ).toEqual({
      hookId: "h",
      eventId: "e",
      action: "toString",
    });
  });

  it("reads JSON bytes from any Uint8Array view, not only a Buffer", () => {
    const bytes = new TextEncoder().encode(`xx{"a":1}`).subarray(2);
    expect(
      convertFromProto("HookResponse", { hookId: "h", eventId: "e", modified: bytes }),
    ).toEqual({
      hookId: "h",
      eventId: "e",
      modified: { a: 1 },
    });
  });
});

describe("toProto for a HookEvent", () => {
  it("passes a HookEvent with encoded bytes through untouched, and encodes an object payload", () => {
    const encoded = {
      hookId: "h",
      eventType: "Stop",
      sessionId: "s",
      timestamp: 1,
      eventId: "e",
      deadlineMs: 2,
      payload: Buffer.from('{"a":1}') as never,
    };
    expect(toProto("HookEvent", encoded)).toBe(encoded);
    const decoded = overTheWire("HookService", "HookStream", "response", encoded);
    expect(fromProto("HookEvent", decoded)).toMatchObject({
      success: true,
      data: { payload: { a: 1 } },
    });
    const plain = toProto("HookEvent", { ...encoded, payload: { a: 2 } }) as { payload: Buffer };
    expect(JSON.parse(plain.payload.toString("utf8"))).toEqual({ a: 2 });
  });
});
