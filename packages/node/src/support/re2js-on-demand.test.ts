import { RE2JS as real } from "re2js";
import { describe, expect, it } from "vitest";
import { RE2JS } from "./re2js-on-demand.js";

// The CLI's build puts this where linear-regex.ts imports re2js (tsup.config.ts); the
// bundle test checks that it does, this that it is the same compile.
describe("RE2JS.compile, loaded on demand", () => {
  it("compiles as re2js does, and matches in linear time", () => {
    const pattern = RE2JS.compile("^(a+)+$");
    expect(pattern.test("a".repeat(32))).toBe(true);
    expect(pattern.test(`${"a".repeat(32)}!`)).toBe(false);
    expect(RE2JS.compile("rm\\s+-rf", real.CASE_INSENSITIVE).test("RM  -RF /")).toBe(true);
  });

  it("throws re2js's own error for a pattern RE2 cannot express", () => {
    const message = (() => {
      try {
        real.compile("(a)\\1");
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/invalid escape sequence/);
    expect(() => RE2JS.compile("(a)\\1")).toThrow(message);
  });
});
