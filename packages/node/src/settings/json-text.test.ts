import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, locateJsonError, parseJsonText } from "./json-text.js";

describe("parseJsonText", () => {
  it("parses valid JSON, ignoring a leading BOM", () => {
    expect(parseJsonText('\uFEFF{"a": [1, 2.5e3, -0, true, null, "\\u00e9\\n"]}')).toEqual({
      ok: true,
      value: { a: [1, 2500, -0, true, null, "é\n"] },
    });
  });

  it.each([
    ['{\n  "a": 1,\n}', 3, 1, "trailing comma"],
    ['{\n  "a": tru\n}', 2, 8, "expected a value"],
    ['{\n  "hooks": {\n    "PreToolUse": [\n  }\n}', 4, 3, 'unexpected "}"; expected a value'],
    ['{"a" 1}', 1, 6, 'expected ":"'],
    ["{a: 1}", 1, 2, "property name in double quotes"],
    ['{"a": "x\ny"}', 1, 9, "control character"],
    ['{"a": "\\q"}', 1, 8, "invalid escape"],
    ['{"a": 1} // note', 1, 10, "after the end"],
    ['{"a": // note\n1}', 1, 7, "comments are not allowed"],
    ['{"a": "open', 1, 7, "not closed"],
    ["", 1, 1, "end of file"],
    ["[1, 2", 1, 6, 'expected "," or "]"'],
    ["[01]", 1, 3, 'expected "," or "]"'],
  ])("locates the fault in %j at %i:%i (%s)", (text, line, column, message) => {
    const result = parseJsonText(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect({ line: result.line, column: result.column }).toEqual({ line, column });
    expect(result.message).toContain(message);
  });

  it("survives nesting a recursive parser would overflow on", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(199_999)}`;
    expect(locateJsonError(deep)?.message).toContain("end of file");
  });

  it("agrees with JSON.parse on what is valid (property)", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(locateJsonError(text)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ maxLength: 2 }), (text, at, junk) => {
        const i = at % (text.length + 1);
        const broken = text.slice(0, i) + junk + text.slice(i);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        expect(locateJsonError(broken) === undefined).toBe(valid);
      }),
      { numRuns: 300 },
    );
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth, inside arrays too, and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).toBe("[2,1]");
  });

  it("gives equal values the same text whatever their key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reversed = JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
          v !== null && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        ) as unknown;
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
