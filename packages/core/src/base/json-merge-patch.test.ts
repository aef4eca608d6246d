import { describe, expect, it } from "vitest";
import { applyMergePatch, findForbiddenKey, patchPaths } from "./json-merge-patch.js";

describe("applyMergePatch (RFC 7386)", () => {
  // The examples of RFC 7386 appendix A.
  it.each([
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [
      ["a", "b"],
      ["c", "d"],
      ["c", "d"],
    ],
    [{ a: "b" }, ["c"], ["c"]],
    [{ a: "foo" }, null, null],
    [{ a: "foo" }, "bar", "bar"],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])("%j + %j = %j", (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it("never changes the target and shares untouched branches", () => {
    const target = { a: { deep: 1 }, b: { x: 1 } };
    const out = applyMergePatch(target, { b: { y: 2 } });
    expect(target).toEqual({ a: { deep: 1 }, b: { x: 1 } });
    expect(out.a).toBe(target.a);
  });

  it("treats __proto__ as data, never as the prototype", () => {
    const out = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": 1}}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(findForbiddenKey(JSON.parse('{"a": {"constructor": {}}}'))).toEqual([
      "a",
      "constructor",
    ]);
    expect(findForbiddenKey({ a: { b: 1 } })).toBeUndefined();
  });
});

describe("patchPaths", () => {
  it("lists the leaves a patch writes, counting nested empty objects as writes", () => {
    expect(patchPaths({ args: { command: "x", env: { A: null } } })).toEqual([
      ["args", "command"],
      ["args", "env", "A"],
    ]);
    expect(patchPaths({})).toEqual([]);
    expect(patchPaths({ args: {} })).toEqual([["args"]]);
    expect(patchPaths({ args: { command: {} } })).toEqual([["args", "command"]]);
  });
});
