// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${path} placeholders are what these tests are about
import { describe, expect, it } from "vitest";
import { fillMcpToolInput, inputPlaceholderProblems, MAX_INPUT_DEPTH } from "./mcp-tool-input.js";

describe("fillMcpToolInput", () => {
  const hookInput = {
    tool_input: { file_path: "/a", edits: [{ old: "x" }], flag: false, none: null },
    session_id: "s1",
  };
  it("walks dot paths into objects and arrays, at any depth of input", () => {
    expect(
      fillMcpToolInput(
        {
          a: "${tool_input.edits.0.old}",
          list: ["${session_id}", 1],
          deep: { f: "${tool_input.flag}" },
        },
        hookInput,
      ),
    ).toEqual({ a: "x", list: ["s1", 1], deep: { f: "false" } });
  });
  it("finds nothing through the prototype chain or a non-index on an array", () => {
    expect(
      fillMcpToolInput(
        {
          p: "${__proto__.polluted}",
          c: "${tool_input.constructor}",
          l: "${tool_input.edits.length}",
        },
        hookInput,
      ),
    ).toEqual({ p: "", c: "", l: "" });
  });
  it("keeps a key named __proto__ a plain key", () => {
    const out = fillMcpToolInput(JSON.parse('{"__proto__": {"x": "${session_id}"}}'), hookInput);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
  });
  it("writes null as JSON and an object as its JSON text", () => {
    expect(
      fillMcpToolInput({ n: "${tool_input.none}", o: "${tool_input.edits}" }, hookInput),
    ).toEqual({
      n: "null",
      o: '[{"old":"x"}]',
    });
  });
});

describe("inputPlaceholderProblems", () => {
  it("names each malformed placeholder and too-deep nesting by its path", () => {
    let deep: unknown = "v";
    for (let i = 0; i <= MAX_INPUT_DEPTH; i++) deep = { d: deep };
    expect(
      inputPlaceholderProblems({ ok: "${a.b}", bad: "${a..b}", deep: deep as object }),
    ).toEqual([
      expect.stringMatching(/^input\.bad: "\$\{a\.\.b\}" is not a placeholder/),
      expect.stringMatching(/^input\.deep(\.d)+: nested deeper than 32 levels$/),
    ]);
  });
});
