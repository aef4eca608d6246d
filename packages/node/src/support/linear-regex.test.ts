import { createEvent, HookEngine, HookError } from "@a3s-lab/hooks-core";
import { compileMatcher } from "@a3s-lab/hooks-core/internal";
import { describe, expect, it } from "vitest";
import { linearRegex } from "./linear-regex.js";

const bash = (command: string, path?: string) =>
  createEvent("PreToolUse", {
    sessionId: "s",
    tool: "Bash",
    args: path === undefined ? { command } : { command, path },
  });

describe("linearRegex", () => {
  it("reads the patterns matchers use, with RegExp's search semantics", () => {
    for (const [source, input, expected] of [
      ["^rm\\s+-rf", "rm -rf /", true],
      ["git (push|commit)", "echo; git push", true],
      ["\\d{3}", "ab12", false],
      ["^(?:Bash|Write)$", "Write", true],
    ] as const) {
      expect(linearRegex(source).test(input)).toBe(expected);
      expect(new RegExp(source).test(input)).toBe(expected);
    }
  });

  it("answers a catastrophic pattern at once where a backtracking engine stalls", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: { commandPattern: "^(a+)+$" },
      regex: linearRegex,
      handler: () => ({ action: "block", reason: "matched" }),
    });
    engine.register({
      event: "PreToolUse",
      matcher: "^(B+)+$",
      regex: linearRegex,
      handler: () => ({ action: "block", reason: "matched" }),
    });
    engine.register({
      event: "PreToolUse",
      matcher: { pathPattern: "*a*a*a*a*a*a*a*a*a*a*a*a*!" },
      regex: linearRegex,
      handler: () => ({ action: "block", reason: "matched" }),
    });
    const result = await engine.fire(bash(`${"a".repeat(31)}!`, "a".repeat(40)));
    expect(result.action).toBe("continue");
    expect((await engine.fire(bash("a".repeat(5_000)))).action).toBe("block");
  });

  it.each([
    ["(a)\\1", "invalid escape sequence"],
    ["rm(?! -i)", "invalid or unsupported Perl syntax"],
  ])("refuses %s at registration, naming the field and why", (pattern, why) => {
    let error: unknown;
    try {
      compileMatcher("PreToolUse", { commandPattern: pattern }, ["matcher"], {
        regex: linearRegex,
      });
    } catch (e) {
      error = e;
    }
    expect(HookError.is(error, "INVALID_PATTERN")).toBe(true);
    expect((error as Error).message).toContain(
      "matcher.commandPattern: invalid regular expression",
    );
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).toContain("no backreferences or lookaround");
  });
});
