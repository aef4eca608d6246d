import { describe, expect, it } from "vitest";
import {
  addContext,
  allow,
  ask,
  block,
  CONTINUE,
  deny,
  hookResponseSchema,
  modify,
  proceed,
  retry,
  skip,
} from "./hook-response.js";

describe("response helpers", () => {
  it("build valid responses of each kind", () => {
    const all = [
      proceed(),
      proceed({ systemMessage: "m" }),
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
    expect(proceed()).toBe(CONTINUE);
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
