import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings, planHookSettings } from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";

let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-if-"));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content, null, 2));
  return path;
}

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

describe('a hook\'s "if" condition', () => {
  it("never starts the process for a tool call the rule does not describe", async () => {
    const marker = join(root, "ran");
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                if: "Bash(git push:*)",
                command: `echo x >> '${marker}'; echo "no push" >&2; exit 2`,
              },
            ],
          },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks[0]?.if).toBe("Bash(git push:*)");
    const engine = new HookEngine();
    let runs = 0;
    using _ = applyHookSettings(engine, settings, { projectDir: cwd, onRun: () => runs++ });

    const status = await engine.fire(bash("git status"));
    expect(status.action).toBe("continue");
    expect(runs).toBe(0);
    expect(existsSync(marker)).toBe(false);

    const push = await engine.fire(bash("ls && git push origin main"));
    expect(push.action).toBe("block");
    expect(runs).toBe(1);
    expect(existsSync(marker)).toBe(true);
  });

  it("keeps a hook whose rule is malformed, without its condition, and warns naming the field", async () => {
    const file = write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", if: "Bash(git", command: "echo bad" },
              { type: "command", if: 42, command: "echo bad too" },
              { type: "command", command: "echo fine" },
            ],
          },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(settings.hooks.map((h) => [h.definition.command, h.if])).toEqual([
      ["echo bad", undefined],
      ["echo bad too", undefined],
      ["echo fine", undefined],
    ]);
    expect(settings.problems.map((p) => [p.file, p.path, p.severity])).toEqual([
      [file, "hooks.PreToolUse[0].hooks[0].if", "warning"],
      [file, "hooks.PreToolUse[0].hooks[1].if", "warning"],
    ]);
    expect(settings.problems[0]?.message).toMatch(/runs on every call its matcher takes/);
  });

  it("on an event that is not a tool event, the hook never runs and says why", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: { Stop: [{ hooks: [{ type: "command", if: "Bash(git *)", command: "echo stop" }] }] },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(settings.problems.map((p) => [p.path, p.severity])).toEqual([
      ["hooks.Stop[0].hooks[0].if", "warning"],
    ]);
    const plan = planHookSettings(settings);
    expect(plan.apply).toEqual([]);
    expect(plan.skipped.map((s) => [s.reason, s.message])).toEqual([
      ["condition", expect.stringContaining("tool events only; on Stop it never matches")],
    ]);
  });

  it("keeps two copies of a command with different conditions", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", if: "Bash(rm *)", command: "guard" }] },
          { matcher: "Bash", hooks: [{ type: "command", if: "Bash(git *)", command: "guard" }] },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(planHookSettings(settings).apply).toHaveLength(2);
  });

  it("reads path rules from the project directory the hooks run in", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Edit|Write",
            hooks: [{ type: "command", if: "Edit(src/**)", command: "true" }],
          },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine();
    let runs = 0;
    using _ = applyHookSettings(engine, settings, { projectDir: cwd, onRun: () => runs++ });
    const edit = (file_path: string) =>
      createEvent("PreToolUse", {
        sessionId: "s",
        tool: "Write",
        args: { file_path, content: "" },
      });
    await engine.fire(edit(join(cwd, "lib/a.ts")));
    await engine.fire(edit(join(root, "src/a.ts")));
    expect(runs).toBe(0);
    await engine.fire(edit(join(cwd, "src/deep/a.ts")));
    await engine.fire(edit("src/b.ts"));
    expect(runs).toBe(2);
  });
});
