import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HookError } from "./hook-error.js";
import type { HookResponse } from "./hook-response.js";
import { fromHookResponse, toHookResponse } from "./wire-response.js";

function errorOf(result: { success: boolean; error?: HookError }): HookError {
  expect(result.success).toBe(false);
  return result.error!;
}

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

describe("toHookResponse and the JSON limits", () => {
  it("refuses a modified past the limits or with a prototype key, naming the field", () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const tooDeep = toHookResponse({
      hookId: "h",
      eventId: "e",
      action: "continue",
      modified: deep,
    });
    expect(tooDeep).toMatchObject({ success: false, error: { code: "LIMIT_EXCEEDED" } });
    const proto = toHookResponse({
      hookId: "h",
      eventId: "e",
      action: "continue",
      modified: JSON.parse('{"__proto__":{"x":1}}'),
    });
    expect(proto).toMatchObject({
      success: false,
      error: { message: "HookResponse.modified.__proto__: this key is not allowed" },
    });
  });
});
