import { describe, expect, it } from "vitest";
import { describeValue, HookError } from "./hook-error.js";

describe("HookError", () => {
  it("keeps code, path, details and cause, and serialises without the cause", () => {
    const cause = new Error("root");
    const error = new HookError("TIMEOUT", "slow", { cause, path: ["a", 0], details: { ms: 5 } });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "HookError",
      code: "TIMEOUT",
      path: ["a", 0],
      details: { ms: 5 },
      cause,
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "HookError",
      code: "TIMEOUT",
      message: "slow",
      path: ["a", 0],
    });
  });

  it("from() normalises anything thrown", () => {
    const same = new HookError("BLOCKED", "x");
    expect(HookError.from(same)).toBe(same);
    expect(HookError.from(new Error("e"), "HANDLER_FAILED")).toMatchObject({
      code: "HANDLER_FAILED",
      message: "e",
    });
    expect(HookError.from(new DOMException("stop", "AbortError")).code).toBe("ABORTED");
    expect(HookError.from(new DOMException("late", "TimeoutError")).code).toBe("TIMEOUT");
    expect(HookError.from("plain string")).toMatchObject({
      code: "INTERNAL",
      message: "plain string",
    });
    expect(HookError.from({ weird: true }).message).toBe('{"weird":true}');
    expect(HookError.from(undefined).message).toBe("undefined");
  });

  it("is() recognises HookErrors from another copy of the library by shape", () => {
    const foreign = Object.assign(new Error("x"), { code: "BLOCKED", path: [] });
    expect(HookError.is(foreign, "BLOCKED")).toBe(true);
    expect(HookError.is(new Error("x"))).toBe(false);
    expect(HookError.is(new HookError("TIMEOUT", "t"), "BLOCKED")).toBe(false);
  });

  it("describeValue keeps previews short and never throws", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe("[object Object]");
    expect(describeValue("x".repeat(100))).toMatch(/… \(102 chars\)$/);
    expect(describeValue(() => 1)).toBe("a function");
    expect(describeValue(10n)).toBe("10n");
    expect(describeValue(Symbol("s"))).toBe("Symbol(s)");
  });
});
