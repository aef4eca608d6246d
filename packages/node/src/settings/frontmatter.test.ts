import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { applyHookSettings } from "./apply-hook-settings.js";
import { parseFrontmatterHooks } from "./frontmatter.js";
import { formatProblem } from "./settings-problem.js";

const skill = (frontmatter: string, body = "# Skill\n\nDo things.\n") =>
  `---\n${frontmatter}\n---\n${body}`;

describe("parseFrontmatterHooks", () => {
  it("reads the hooks-system design's hooks block and registers it while the skill is loaded", async () => {
    const settings = parseFrontmatterHooks(
      skill(
        [
          "name: formatter",
          "description: Formats files",
          "hooks:",
          "  PreToolUse:",
          '    - matcher: "Write|Edit"',
          "      hooks:",
          "        - type: command",
          "          command: echo formatted",
          "          timeout: 10",
        ].join("\n"),
      ),
      "skills/formatter/SKILL.md",
    );
    expect(settings.problems).toEqual([]);
    expect(settings.hooks).toEqual([
      {
        id: "skills/formatter/SKILL.md#hooks.PreToolUse[0].hooks[0]",
        event: "PreToolUse",
        matcher: "Write|Edit",
        type: "command",
        definition: { command: "echo formatted", timeout: 10 },
        name: "echo formatted",
        source: "skills/formatter/SKILL.md",
        path: "hooks.PreToolUse[0].hooks[0]",
        scope: "frontmatter",
        trusted: true,
      },
    ]);
    const engine = new HookEngine();
    const handle = applyHookSettings(engine, settings);
    const write = createEvent("PreToolUse", { sessionId: "s", tool: "Edit", args: {} });
    expect((await engine.fire(write)).outcomes).toHaveLength(1);
    handle.unregister();
    expect((await engine.fire(write)).outcomes).toHaveLength(0);
  });

  it("finds nothing, and no problem, in markdown without frontmatter or without hooks", () => {
    for (const text of ["# Just a doc\n", skill("name: x"), skill(""), "---\n---\n"]) {
      const settings = parseFrontmatterHooks(text, "doc.md");
      expect([settings.hooks, settings.problems]).toEqual([[], []]);
    }
  });

  it("marks hooks untrusted when asked to", () => {
    const settings = parseFrontmatterHooks(skill("hooks:\n  Stop: echo done"), "x.md", {
      trusted: false,
    });
    expect(settings.hooks[0]?.trusted).toBe(false);
    expect(applyHookSettings(new HookEngine(), settings).skipped[0]?.reason).toBe("untrusted");
  });

  it("reports YAML errors with the file's line, and bad hooks with their path", () => {
    const broken = parseFrontmatterHooks(skill("hooks:\n  Stop: [echo\n  x: y"), "bad.md");
    expect(broken.problems).toHaveLength(1);
    expect(formatProblem(broken.problems[0]!)).toBe(
      "bad.md:4:3: invalid YAML frontmatter at line 4, column 3: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );

    const dup = parseFrontmatterHooks(skill("hooks: {}\nhooks: {}"), "dup.md");
    expect(dup.problems[0]?.message).toMatch(/unique/);

    const bad = parseFrontmatterHooks(
      skill("hooks:\n  PreToolUse:\n    - hooks:\n        - command: x\n          timeout: -1"),
      "bad.md",
    );
    expect(bad.problems.map((p) => formatProblem(p))).toEqual([
      "bad.md: hooks.PreToolUse[0].hooks[0].timeout: expected a positive number, got -1",
    ]);
  });

  it("refuses an unclosed frontmatter, a non-mapping, and alias bombs", () => {
    expect(parseFrontmatterHooks("---\nhooks: {}\n", "open.md").problems[0]?.message).toBe(
      'the frontmatter is not closed by a "---" line',
    );
    expect(parseFrontmatterHooks(skill("- a\n- b"), "list.md").problems[0]?.message).toMatch(
      /expected the frontmatter to be a mapping/,
    );
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]",
    ].join("\n");
    expect(parseFrontmatterHooks(skill(bomb), "bomb.md").problems[0]?.message).toMatch(
      /invalid YAML frontmatter/,
    );
    expect(
      parseFrontmatterHooks(`---\n${"x".repeat(300 * 1024)}\n---\n`, "big.md").problems[0]?.message,
    ).toMatch(/not closed within/);
    expect(parseFrontmatterHooks(42 as never, "n.md").problems[0]?.message).toMatch(
      /expected markdown text/,
    );
  });
});
