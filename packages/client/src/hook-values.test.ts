import { describe, expect, it } from "vitest";
import { HookEvent, HookResponse } from "./hook-values.js";

describe("HookResponse and HookEvent values", () => {
  it("build every answer the way the A3S Box hooks design's SDKs spell them", () => {
    expect(HookResponse.continue()).toEqual({ action: "continue" });
    expect(HookResponse.continue({ systemMessage: "m" })).toEqual({
      action: "continue",
      systemMessage: "m",
    });
    expect("proceed" in HookResponse).toBe(false);
    expect(HookResponse.block("no")).toEqual({ action: "block", reason: "no" });
    expect(HookResponse.retry(100)).toEqual({ action: "retry", delay: 100 });
    expect(HookResponse.skip()).toEqual({ action: "skip" });
    expect(HookResponse.modify({ args: { a: 1 } })).toEqual({
      action: "continue",
      modified: { args: { a: 1 } },
    });
    expect(HookResponse.allow()).toEqual({ action: "continue", permission: "allow" });
    expect(Object.isFrozen(HookResponse)).toBe(true);
  });

  it("resolve and check events", () => {
    expect(HookEvent.resolve("pre_tool_use")).toBe("PreToolUse");
    expect(HookEvent.is("PreToolUse")).toBe(true);
    expect(HookEvent.names).toContain("GenerateEnd");
    const checked = HookEvent.validate({ eventType: "Stop", sessionId: "s" });
    expect(checked.success).toBe(false);
  });
});
