import { describe, expect, it } from "vitest";
import { HookError } from "./hook-error.js";
import { compileTemplate, renderTemplate } from "./template.js";

describe("renderTemplate", () => {
  it("substitutes plain and dotted variables, objects as JSON, missing leaves as empty", () => {
    const vars = { tool_name: "Write", tool_args: { file_path: "a.ts", n: 2 }, error: undefined };
    expect(
      renderTemplate(
        "{{tool_name}} {{ tool_args.file_path }} {{tool_args}} [{{error}}] {{tool_args.nope}}",
        vars,
      ),
    ).toBe('Write a.ts {"file_path":"a.ts","n":2} [] ');
  });

  it("passes every value through the escaper, with where it sits", () => {
    const seen: string[] = [];
    const out = renderTemplate("echo '{{message}}'", { message: "it's" }, (value, ctx) => {
      seen.push(`${ctx.name}@${ctx.prefix}`);
      return value.replaceAll("'", "'\\''");
    });
    expect(out).toBe("echo 'it'\\''s'");
    expect(seen).toEqual(["message@echo '"]);
  });

  it("names the unknown variable and lists the known ones", () => {
    const error = (() => {
      try {
        renderTemplate("{{tool_nme}}", { tool_name: "x", session_id: "s" });
      } catch (e) {
        return e;
      }
    })();
    expect(HookError.is(error, "TEMPLATE_ERROR")).toBe(true);
    expect((error as HookError).message).toContain("{{tool_nme}}");
    expect((error as HookError).message).toContain("known variables: session_id, tool_name");
  });

  it("rejects malformed placeholders at compile time", () => {
    expect(() => compileTemplate("{{ rm -rf }}")).toThrow(/malformed placeholder/);
    expect(() => compileTemplate("{{a..b}}")).toThrow(HookError);
  });

  it("leaves text without placeholders alone, including lone braces", () => {
    expect(compileTemplate("a { b } {c}").variables).toEqual([]);
    expect(renderTemplate("a { b } {c}", {})).toBe("a { b } {c}");
  });

  it("does not look up inherited properties", () => {
    expect(renderTemplate("[{{v.constructor}}]", { v: {} })).toBe("[]");
  });
});
