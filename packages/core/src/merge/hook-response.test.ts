import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validate } from "../base/validation.js";
import {
  addContext,
  allow,
  ask,
  block,
  CONTINUE,
  checkHookResponse,
  continueWith,
  deny,
  hookResponseSchema,
  modify,
  retry,
  safeParseHookResponse,
  skip,
} from "./hook-response.js";

describe("response helpers", () => {
  it("build valid responses of each kind", () => {
    const all = [
      continueWith(),
      continueWith({ systemMessage: "m" }),
      block("r"),
      deny("r"),
      allow(),
      ask({ additionalContext: "c" }),
      modify({ args: { a: 1 } }),
      retry(),
      retry(5, "busy"),
      skip(),
      addContext("x"),
    ];
    for (const response of all) expect(hookResponseSchema.safeParse(response).success).toBe(true);
    expect(continueWith()).toBe(CONTINUE);
    expect(Object.isFrozen(CONTINUE)).toBe(true);
    expect(retry(5, "busy")).toEqual({ action: "retry", delay: 5, reason: "busy" });
    expect(allow()).toEqual({ action: "continue", permission: "allow" });
    expect(deny("no")).toEqual({ action: "block", reason: "no" });
  });

  it("the schema refuses a block without a reason and an impossible delay", () => {
    expect(hookResponseSchema.safeParse({ action: "block" }).success).toBe(false);
    expect(hookResponseSchema.safeParse({ action: "block", reason: "" }).success).toBe(false);
    expect(hookResponseSchema.safeParse({ action: "retry", delay: 2 ** 31 }).success).toBe(false);
    expect(hookResponseSchema.safeParse({ action: "continue", permission: "deny" }).success).toBe(
      false,
    );
  });
});

describe("safeParseHookResponse", () => {
  it("answers zod-style: the response, or the error naming what is wrong", () => {
    expect(safeParseHookResponse(undefined)).toEqual({ success: true, data: CONTINUE });
    expect(safeParseHookResponse({ action: "block", reason: "no" })).toEqual({
      success: true,
      data: { action: "block", reason: "no" },
    });
    const bad = safeParseHookResponse({ action: "explode" });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.code).toBe("INVALID_OUTPUT");
  });
});

describe("checkHookResponse", () => {
  const bySchema = (value: unknown) => {
    const checked = validate(hookResponseSchema, value, "INVALID_OUTPUT", ["response"]);
    return checked.success ? checked.data : checked.error;
  };

  it("answers block-shaped values exactly as the schema does, short cut or not", () => {
    const reason = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("", 0, null, undefined));
    const value = fc.oneof(
      fc.record({ action: fc.constant("block"), reason }),
      fc.record(
        {
          action: fc.constantFrom("block", "continue", "skip"),
          reason,
          systemMessage: fc.string({ maxLength: 5 }),
          extra: fc.integer(),
        },
        { requiredKeys: ["action"] },
      ),
      fc.constant(Object.assign(Object.create({ inherited: 1 }), { action: "block", reason: "r" })),
      fc.constant(JSON.parse('{"action":"block","reason":"r","__proto__":{"x":1}}')),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(checkHookResponse(v)).toEqual(bySchema(v));
      }),
      { numRuns: 1000 },
    );
  });

  it("copies a block: the caller's object is not the response", () => {
    const answer = { action: "block" as const, reason: "no" };
    const checked = checkHookResponse(answer);
    expect(checked).toEqual(answer);
    expect(checked).not.toBe(answer);
  });
});
