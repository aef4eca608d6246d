import { describe, expect, it } from "vitest";
import {
  copyJsonData,
  jsonDepth,
  MAX_JSON_DEPTH,
  MAX_JSON_NODES,
  tooDeepField,
} from "./json-limits.js";

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe("copyJsonData", () => {
  it("copies JSON data into fresh objects, leaving undefined fields out", () => {
    const source = { a: [1, "x", null, { b: true }], c: undefined };
    const copy = copyJsonData(source, ["modified"]);
    expect(copy).toEqual({ success: true, data: { a: [1, "x", null, { b: true }] } });
    expect((copy as { data: unknown }).data).not.toBe(source);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, naming the field`, () => {
    expect(copyJsonData(nested(MAX_JSON_DEPTH), ["modified"]).success).toBe(true);
    const refused = copyJsonData(nested(MAX_JSON_DEPTH + 1), ["response", "modified"]);
    expect(refused.success).toBe(false);
    const error = (refused as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.message).toBe(
      `response.modified: nested more than ${MAX_JSON_DEPTH} levels deep (or refers to itself)`,
    );
  });

  it("refuses a million levels without exhausting the stack", () => {
    const refused = copyJsonData(nested(1_000_000), ["modified"]);
    expect(refused.success).toBe(false);
  });

  it("refuses a shared object unfolding past the value limit", () => {
    let value: unknown = "x";
    for (let i = 0; i < 40; i++) value = { l: value, r: value };
    const refused = copyJsonData(value, ["modified"]);
    expect(refused).toMatchObject({ success: false, error: { code: "LIMIT_EXCEEDED" } });
    expect((refused as { error: Error }).error.message).toBe(
      `modified: more than ${MAX_JSON_NODES} values`,
    );
  });

  it.each([
    [JSON.parse('{"__proto__": {"x": 1}}'), "modified.__proto__: this key is not allowed"],
    [{ a: [{ constructor: 1 }] }, "modified.a[0].constructor: this key is not allowed"],
    [{ a: { prototype: 1 } }, "modified.a.prototype: this key is not allowed"],
    [{ a: () => 1 }, "modified.a: expected JSON data, got a function"],
    [{ a: new Date(0) }, "modified.a: expected JSON data, got an object that is not plain data"],
    [{ a: [undefined] }, "modified.a[0]: expected JSON data, got undefined"],
    [{ a: Number.NaN }, "modified.a: expected JSON data, got NaN"],
    [{ a: 1n }, "modified.a: expected JSON data, got a bigint"],
  ])("refuses %o: %s", (value, message) => {
    const refused = copyJsonData(value, ["modified"]);
    expect(refused.success).toBe(false);
    expect((refused as { error: Error }).error.message).toBe(message);
  });

  it("refuses a getter that throws, naming its field", () => {
    const value = {
      get a() {
        throw new Error("getter");
      },
    };
    const refused = copyJsonData(value, ["modified"]);
    expect((refused as { error: Error }).error.message).toBe(
      "modified.a: could not be read (getter)",
    );
  });

  it("never throws for a Proxy whose every trap throws", () => {
    const boom = () => {
      throw new Error("trap");
    };
    const trap = new Proxy({}, { get: boom, ownKeys: boom, getPrototypeOf: boom });
    expect(copyJsonData(trap, ["modified"])).toMatchObject({ success: false });
    expect(copyJsonData({ a: trap }, ["modified"])).toMatchObject({ success: false });
  });
});

describe("jsonDepth and tooDeepField", () => {
  it("measure without recursion and stop just past the limit", () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({ a: [1] })).toBe(2);
    expect(jsonDepth(nested(1_000_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it("name the first field nested too deep", () => {
    expect(tooDeepField({ hookId: "h", modified: nested(MAX_JSON_DEPTH) }, ["HookResponse"])).toBe(
      undefined,
    );
    const error = tooDeepField({ hookId: "h", modified: nested(100_000) }, ["HookResponse"]);
    expect(error).toMatchObject({ code: "LIMIT_EXCEEDED", path: ["HookResponse", "modified"] });
    expect(error!.message).toBe(
      `HookResponse.modified: nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
  });
});
