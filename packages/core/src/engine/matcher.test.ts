import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HookError } from "../base/hook-error.js";
import { claudeCodeEvents } from "../events/claude-code-events.js";
import { createEvent } from "../events/create-event.js";
import type { HookEvent } from "../events/event-schemas.js";
import { defineEvent } from "../events/event-spec.js";
import { compileMatcher, compileNameMatcher, normalizePath } from "./matcher.js";

function names(pattern: string, candidates: string[]): string[] {
  const test = compileNameMatcher(pattern);
  return candidates.filter((n) => test === null || test(n));
}

const tools = [
  "Bash",
  "Write",
  "Edit",
  "NotebookEdit",
  "mcp__github__create_issue",
  "mcp__fs__read",
  "bash_execute",
];

describe("compileNameMatcher", () => {
  it.each([
    ["", tools],
    ["*", tools],
    ["  *  ", tools],
    ["Bash", ["Bash"]],
    ["Edit", ["Edit"]],
    ["Write|Edit", ["Write", "Edit"]],
    ["mcp__*", ["mcp__github__create_issue", "mcp__fs__read"]],
    ["mcp__github__*", ["mcp__github__create_issue"]],
    ["*Edit", ["Edit", "NotebookEdit"]],
    ["builtin:*", ["Bash", "Write", "Edit", "NotebookEdit", "bash_execute"]],
    ["mcp:*", ["mcp__github__create_issue", "mcp__fs__read"]],
    ["builtin:Bash|Write", ["Bash", "Write"]],
    ["Notebook.*", ["NotebookEdit"]],
    // Unanchored: a regex finds `Edit` inside NotebookEdit too.
    ["(Write|Edit)", ["Write", "Edit", "NotebookEdit"]],
    ["^(Write|Edit)$", ["Write", "Edit"]],
    ["[Bb]ash.*", ["Bash", "bash_execute"]],
  ])("%j matches %j", (pattern, expected) => {
    expect(names(pattern, tools)).toEqual(expected);
  });

  it("reads a dot as regex, as Claude Code does (`Notebook.*`)", () => {
    expect(names("a.b", ["a.b", "axb", "a.bc", "ab"])).toEqual(["a.b", "axb", "a.bc"]);
  });

  // Claude Code's hooks reference, "Matcher patterns": letters, digits, `_`, `-`, spaces, `,`
  // and `|` only is an exact string or a list of them separated by `|` or `,`; any other
  // character makes a JavaScript regular expression, unanchored.
  it("searches a regular expression anywhere in the name, as Claude Code does", () => {
    expect(names("^Notebook", ["Notebook", "NotebookEdit", "MyNotebook"])).toEqual([
      "Notebook",
      "NotebookEdit",
    ]);
    expect(names("Ed.t", ["Edit", "NotebookEdit", "Editor"])).toEqual([
      "Edit",
      "NotebookEdit",
      "Editor",
    ]);
    expect(names("^Edit$", ["Edit", "NotebookEdit", "Editor"])).toEqual(["Edit"]);
    expect(names("^mcp__", tools)).toEqual(["mcp__github__create_issue", "mcp__fs__read"]);
  });

  it("compares letters, digits, `_`, `-`, spaces, `,` and `|` as exact names", () => {
    expect(names("Bash", ["Bash", "BashOutput", "bash"])).toEqual(["Bash"]);
    expect(names("mcp__memory", ["mcp__memory__create_entities", "mcp__memory"])).toEqual([
      "mcp__memory",
    ]);
    expect(names("Edit, Write", tools)).toEqual(["Write", "Edit"]);
    expect(names("Edit , Write|Bash", tools)).toEqual(["Bash", "Write", "Edit"]);
    expect(names("code-reviewer", ["code-reviewer", "code-reviewer-2"])).toEqual(["code-reviewer"]);
    expect(names("general purpose", ["general purpose", "general"])).toEqual(["general purpose"]);
  });

  it("never matches a missing subject unless it matches everything", () => {
    expect(compileNameMatcher("Bash")!(undefined)).toBe(false);
    expect(compileNameMatcher("a|b")!(undefined)).toBe(false);
    expect(compileNameMatcher("x*")!(undefined)).toBe(false);
  });

  it("names an invalid regular expression and the field it came from", () => {
    try {
      compileNameMatcher("Bash(", ["hooks", "PreToolUse", 0, "matcher"]);
      expect.unreachable();
    } catch (error) {
      expect(HookError.is(error, "INVALID_PATTERN")).toBe(true);
      expect((error as HookError).message).toContain('"Bash("');
      expect((error as HookError).path).toEqual(["hooks", "PreToolUse", 0, "matcher"]);
    }
  });
});

describe("the narrower exact set of StopFailure and FileChanged", () => {
  // Claude Code's hooks reference: for these two events only letters, digits, `_` and `|` stay
  // exact; a hyphen, space or comma makes a regular expression, and only `|` separates names.
  it("reads a comma or a space as a regular expression there, and as a list elsewhere", () => {
    defineEvent(claudeCodeEvents.StopFailure);
    const failure = (error: string) =>
      createEvent("StopFailure" as never, { sessionId: "s", error } as never) as HookEvent;
    expect(
      compileMatcher("StopFailure" as never, "rate_limit|server_error")!(failure("rate_limit")),
    ).toBe(true);
    expect(
      compileMatcher("StopFailure" as never, "rate_limit, server_error")!(failure("rate_limit")),
    ).toBe(false);
    expect(
      compileMatcher("StopFailure" as never, "rate_limit, server_error")!(
        failure("rate_limit, server_error"),
      ),
    ).toBe(true);
    // A hyphen makes a regex, found anywhere in the value.
    expect(compileMatcher("StopFailure" as never, "a-b")!(failure("xa-by"))).toBe(true);
    expect(compileNameMatcher("a-b")!("xa-by")).toBe(false);
    const start = createEvent("SessionStart", { sessionId: "s", source: "resume" });
    expect(compileMatcher("SessionStart", "startup, resume")!(start)).toBe(true);
  });
});

describe("compileMatcher", () => {
  const pre = (tool: string, args: Record<string, unknown>): HookEvent =>
    createEvent("PreToolUse", { sessionId: "s", tool, args });

  it("tests each event's own matcher target", () => {
    const start = createEvent("SessionStart", { sessionId: "s", source: "resume" });
    expect(compileMatcher("SessionStart", "startup|resume")!(start)).toBe(true);
    expect(compileMatcher("SessionStart", "startup")!(start)).toBe(false);
    const gen = createEvent("GenerateStart", {
      sessionId: "s",
      prompt: "p",
      model: { name: "gpt-4o" },
      tools: [],
    });
    expect(compileMatcher("GenerateStart", "gpt-*")!(gen)).toBe(true);
    const compact = createEvent("PreCompact", { sessionId: "s", trigger: "auto" });
    expect(compileMatcher("PreCompact", "manual")!(compact)).toBe(false);
    const note = createEvent("Notification", {
      sessionId: "s",
      message: "m",
      notificationType: "error",
    });
    expect(compileMatcher("Notification", "error")!(note)).toBe(true);
    const skill = createEvent("SkillLoad", { sessionId: "s", skillName: "pdf" });
    expect(compileMatcher("SkillLoad", "pdf|docx")!(skill)).toBe(true);
    const sub = createEvent("SubagentStart", {
      sessionId: "s",
      subagentId: "1",
      subagentType: "explore",
      description: "d",
    });
    expect(compileMatcher("SubagentStart", "plan")!(sub)).toBe(false);
  });

  it("returns null (match everything) for absent, empty and * matchers", () => {
    expect(compileMatcher("PreToolUse", undefined)).toBeNull();
    expect(compileMatcher("PreToolUse", "")).toBeNull();
    expect(compileMatcher("Stop", "*")).toBeNull();
    expect(compileMatcher("PreToolUse", {})).toBeNull();
  });

  it("globs the path argument, whatever it is called, in any folder for a slashless pattern", () => {
    const m = compileMatcher("PreToolUse", { pathPattern: "*.rs" })!;
    expect(m(pre("Write", { file_path: "src/main.rs" }))).toBe(true);
    expect(m(pre("Write", { path: "/abs/lib.rs" }))).toBe(true);
    expect(m(pre("Edit", { notebook_path: "x.rs" }))).toBe(true);
    expect(m(pre("Write", { file_path: "src/main.ts" }))).toBe(false);
    expect(m(pre("Bash", { command: "cat a.rs" }))).toBe(false);
    const nested = compileMatcher("PreToolUse", { pathPattern: "src/**/*.{ts,tsx}" })!;
    expect(nested(pre("Write", { file_path: "src/a/b/c.tsx" }))).toBe(true);
    expect(nested(pre("Write", { file_path: "lib/c.ts" }))).toBe(false);
    expect(
      compileMatcher("PreToolUse", { pathPattern: "*.env" })!(pre("Write", { file_path: ".env" })),
    ).toBe(true);
  });

  it("ANDs the parts of an object matcher", () => {
    const m = compileMatcher("PreToolUse", { tool: "Bash", commandPattern: "^git push" })!;
    expect(m(pre("Bash", { command: "git push --force" }))).toBe(true);
    expect(m(pre("Bash", { command: "git status" }))).toBe(false);
    expect(m(pre("Shell", { command: "git push" }))).toBe(false);
  });

  it("passes predicates through for in-process hooks", () => {
    const m = compileMatcher("PreToolUse", (e) => e.tool.startsWith("B"))!;
    expect(m(pre("Bash", {}))).toBe(true);
    expect(m(pre("Write", {}))).toBe(false);
  });

  it("refuses matchers that cannot apply to the event", () => {
    expect(() => compileMatcher("UserPromptSubmit", "Bash")).toThrow(
      /nothing to match a name against/,
    );
    expect(() => compileMatcher("Notification", { tool: "Bash" })).toThrow(/tool events only/);
    expect(() => compileMatcher("PreToolUse", 42 as never)).toThrow(HookError);
    expect(() => compileMatcher("PreToolUse", { commandPattern: "(" })).toThrow(/commandPattern/);
  });
});

describe("MatcherOptions.regex", () => {
  const compiled: string[] = [];
  /** An engine that records what it compiles and refuses lookaround, as a linear-time one does. */
  const recording = (source: string) => {
    if (/\(\?[=!<]/.test(source)) throw new Error("lookaround is not supported");
    compiled.push(source);
    return new RegExp(source);
  };
  const pre = (args: Record<string, unknown>) =>
    createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args });

  it("compiles name patterns, command patterns and globs with the engine given", () => {
    compiled.length = 0;
    const m = compileMatcher(
      "PreToolUse",
      { tool: "Ba.h", commandPattern: "^rm ", pathPattern: "src/**/*.ts" },
      ["matcher"],
      { regex: recording },
    )!;
    expect(compiled).toHaveLength(3);
    expect(m(pre({ command: "rm x", path: "src/a/b.ts" }))).toBe(true);
    expect(m(pre({ command: "rm x", path: "src/../b.ts" }))).toBe(false);
    expect(m(pre({ command: "ls", path: "src/a/b.ts" }))).toBe(false);
  });

  it("reports a pattern the engine refuses as INVALID_PATTERN naming the field", () => {
    for (const [matcher, path] of [
      ["(?=Bash)Bash", "matcher"],
      [{ commandPattern: "rm(?! -i)" }, "matcher.commandPattern"],
      [{ pathPattern: "!(*.env)" }, "matcher.pathPattern"],
    ] as const) {
      let error: unknown;
      try {
        compileMatcher("PreToolUse", matcher, ["matcher"], { regex: recording });
      } catch (e) {
        error = e;
      }
      expect(HookError.is(error, "INVALID_PATTERN")).toBe(true);
      expect((error as HookError).message).toContain(`${path}: invalid`);
      expect((error as HookError).message).toContain("lookaround is not supported");
    }
  });

  it("matches a path spelled with `.`, `..` or `//` as the path it names, with either engine", () => {
    for (const options of [{}, { regex: recording }]) {
      const env = compileMatcher("PreToolUse", { pathPattern: "*.env" }, ["matcher"], options)!;
      const secrets = compileMatcher("PreToolUse", { pathPattern: "secrets/**" }, ["m"], options)!;
      for (const path of [".env", "./.env", "a/./.env", "x/../.env", "a//.env", "/w/a/../.env"]) {
        expect(env(pre({ file_path: path })), `*.env on ${path}`).toBe(true);
      }
      for (const path of ["./secrets/key", "secrets/./key", "a/../secrets/key", "secrets//key"]) {
        expect(secrets(pre({ file_path: path })), `secrets/** on ${path}`).toBe(true);
      }
      expect(secrets(pre({ file_path: "secrets/../public/key" }))).toBe(false);
      // A star's segment is never empty: `*/**/*` wants two names at least.
      const twoDeep = compileMatcher("PreToolUse", { pathPattern: "*/**/*" }, ["m"], options)!;
      expect(twoDeep(pre({ file_path: "a." }))).toBe(false);
      expect(twoDeep(pre({ file_path: "a/b" }))).toBe(true);
      expect(env(pre({ file_path: "a.env/.." }))).toBe(false);
    }
  });

  it("matches the same paths as picomatch for globs without lookaround, `..` above the start aside", () => {
    const segment = fc.stringMatching(/^[a-c.]{1,3}$/);
    const globPart = fc.constantFrom("*", "**", "?", "a", "b*", "*.c", "{a,b}", "[ab]", ".a");
    const pathOf = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
    const globOf = fc.array(globPart, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(fc.oneof(globOf, globPart), fc.array(pathOf, { maxLength: 8 }), (glob, paths) => {
        const native = compileMatcher("PreToolUse", { pathPattern: glob })!;
        const linear = compileMatcher("PreToolUse", { pathPattern: glob }, ["matcher"], {
          regex: recording,
        })!;
        for (const path of paths) {
          // Both read the path normalised; only `.` itself or a `..` above the start remains.
          const normal = normalizePath(path);
          const dotted = normal === "." || normal.split("/").includes("..");
          const expected = dotted ? false : native(pre({ path }));
          expect(linear(pre({ path })), `${glob} on ${path}`).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});
