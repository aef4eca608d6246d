import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HookError } from "../base/hook-error.js";
import { CONTINUE, type HookResponse } from "../merge/hook-response.js";
import { parseWireMessage } from "./wire-frame.js";
import {
  fromHookResponse,
  MAX_ANSWER_MODIFIED_BYTES,
  MAX_ANSWER_TEXT_CHARS,
  readHookResponse,
  sendableAnswer,
  toHookResponse,
} from "./wire-response.js";

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
              // A prototype key (which fc.jsonValue() makes now and then) is refused, by design.
              modified: fc
                .dictionary(fc.constantFrom("a", "b"), fc.jsonValue())
                .filter((m) => !/"(__proto__|constructor|prototype)":/.test(JSON.stringify(m))),
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

/**
 * What the wire schema and then the response schema make of an answer, each checking all of
 * it: the authority readHookResponse, checking once, must agree with.
 */
function bySchemas(raw: unknown) {
  const parsed = parseWireMessage("HookResponse", raw);
  if (!parsed.success) return parsed;
  const response = toHookResponse(parsed.data);
  if (!response.success) return response;
  return {
    success: true,
    data: { hookId: parsed.data.hookId, eventId: parsed.data.eventId, response: response.data },
  };
}

const id = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/),
  fc.constantFrom("", "a b", "x".repeat(101), "ü"),
);
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constant(""),
  fc.constant("r".repeat(70_000)),
);
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  text,
);

const hookId = fc.oneof({ weight: 4, arbitrary: id }, { weight: 1, arbitrary: anything });
const eventId = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 300 }) },
  { weight: 1, arbitrary: anything },
);
const action = fc.oneof(
  fc.constantFrom("continue", "block", "retry", "skip", "deny", ""),
  anything,
);
const reason = fc.oneof(text, anything);

/** HookResponse-like messages: mostly plausible, often subtly wrong. */
const message = fc.oneof(
  // The shapes the fast path answers, and their near misses.
  fc.record(
    { hookId, eventId, action, reason },
    { requiredKeys: ["hookId", "eventId"], noNullPrototype: true },
  ),
  // Every other field too: these go to the schemas.
  fc.record(
    {
      hookId,
      eventId,
      action,
      reason,
      systemMessage: text,
      error: text,
      modified: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()),
    },
    { requiredKeys: ["hookId", "eventId"], noNullPrototype: true },
  ),
);

describe("readHookResponse", () => {
  it("agrees with the wire schema and the response schema together, for every answer", () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (raw) => {
        const once = readHookResponse(raw);
        const twice = bySchemas(raw);
        expect(once.success).toBe(twice.success);
        if (once.success) {
          accepted++;
          expect(once.data).toEqual((twice as { data: unknown }).data);
        } else expect(once.error.code).toBe((twice as { error: HookError }).error.code);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
    // A hang guard: 3,000 runs take tens of seconds in Chromium on a loaded machine.
  }, 120_000);

  it("reads the common shapes without a copy: a bare continue and a block with a reason", () => {
    expect(readHookResponse({ hookId: "h", eventId: "e" })).toEqual({
      success: true,
      data: { hookId: "h", eventId: "e", response: CONTINUE },
    });
    const cont = readHookResponse({ hookId: "h", eventId: "e", action: "continue" });
    expect(cont.success && cont.data.response).toBe(CONTINUE);
    expect(readHookResponse({ hookId: "h", eventId: "e", action: "block", reason: "no" })).toEqual({
      success: true,
      data: { hookId: "h", eventId: "e", response: { action: "block", reason: "no" } },
    });
  });

  it("refuses what the rules refuse, naming the field", () => {
    const cases: [unknown, string, string][] = [
      [{ hookId: "h", eventId: "e", action: "block" }, "INVALID_OUTPUT", "HookResponse.reason"],
      [
        { hookId: "h", eventId: "e", action: "block", reason: "" },
        "INVALID_OUTPUT",
        "HookResponse.reason",
      ],
      [{ hookId: "h", eventId: "e", error: "boom" }, "HANDLER_FAILED", "boom"],
      [
        { hookId: "h", eventId: "e", action: "skip", permission: "allow" },
        "INVALID_OUTPUT",
        "HookResponse.permission",
      ],
      [{ hookId: "bad id", eventId: "e" }, "INVALID_OUTPUT", "HookResponse.hookId"],
      [
        { hookId: "h", eventId: "e", modified: JSON.parse('{"a":{"__proto__":{"x":1}}}') },
        "INVALID_OUTPUT",
        "HookResponse.modified.a.__proto__",
      ],
    ];
    for (const [raw, code, text] of cases) {
      const result = readHookResponse(raw);
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.error.code).toBe(code);
        expect(result.error.message).toContain(text);
      }
    }
  });

  it("hands on a copy of the patch it checked, not the peer's object", () => {
    const inner = { command: "ls" };
    const raw = { hookId: "h", eventId: "e", action: "continue", modified: { args: inner } };
    const result = readHookResponse(raw);
    expect(result.success).toBe(true);
    if (!result.success || result.data.response.action !== "continue") return;
    expect(result.data.response.modified).toEqual({ args: { command: "ls" } });
    inner.command = "rm -rf /";
    expect(result.data.response.modified).toEqual({ args: { command: "ls" } });
  });
});

describe("sendableAnswer", () => {
  const ids = { hookId: "h", eventId: "e" };

  it("passes an answer within the limits through as it is", () => {
    const message = { ...ids, action: "block" as const, reason: "r".repeat(MAX_ANSWER_TEXT_CHARS) };
    expect(sendableAnswer(message)).toEqual({ success: true, data: message });
  });

  it("cuts every text field past the limit, saying how much was cut, and the result reads back", () => {
    const long = "a".repeat(MAX_ANSWER_TEXT_CHARS + 10);
    const cut = `${"a".repeat(MAX_ANSWER_TEXT_CHARS)}… (10 more characters)`;
    for (const field of ["reason", "systemMessage", "additionalContext", "error"] as const) {
      const action = field === "additionalContext" ? "continue" : "block";
      const answer = sendableAnswer({ ...ids, action, reason: "r", [field]: long });
      expect(answer.success && answer.data[field]).toBe(cut);
    }
    const block = sendableAnswer({ ...ids, action: "block", reason: "x".repeat(5_000_000) });
    expect(block.success && readHookResponse(block.data)).toMatchObject({
      success: true,
      data: {
        response: {
          action: "block",
          reason: expect.stringMatching(/… \(4991808 more characters\)$/),
        },
      },
    });
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const text = `${"a".repeat(MAX_ANSWER_TEXT_CHARS - 1)}${"😀".repeat(10)}`;
    const answer = sendableAnswer({ ...ids, action: "block", reason: text });
    expect(answer.success && answer.data.reason).toBe(
      `${"a".repeat(MAX_ANSWER_TEXT_CHARS - 1)}… (20 more characters)`,
    );
  });

  it("refuses a modified too big to send with LIMIT_EXCEEDED, counting UTF-8 bytes", () => {
    const fits = { args: { s: "a".repeat(MAX_ANSWER_MODIFIED_BYTES - 20) } };
    expect(sendableAnswer({ ...ids, action: "continue", modified: fits }).success).toBe(true);
    // A third as many characters, each three bytes in UTF-8.
    const wide = { args: { s: "€".repeat(MAX_ANSWER_MODIFIED_BYTES / 3) } };
    const error = errorOf(sendableAnswer({ ...ids, action: "continue", modified: wide }));
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.path).toEqual(["HookResponse", "modified"]);
    expect(error.message).toMatch(
      /^HookResponse\.modified: \d+ bytes of JSON; an answer carries at most 3932160$/,
    );
  });
});
