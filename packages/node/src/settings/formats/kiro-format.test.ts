import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings, engineOptionsFromSettings } from "../apply-hook-settings.js";
import { loadHookSettings } from "../load-hook-settings.js";
import { trustProject } from "../project-trust.js";
import { detectFormat } from "./hook-formats.js";

/**
 * Kiro's `.kiro/hooks/*.json` (CLI v3, IDE 1.x), as Kiro's hooks reference shows them: real
 * files, a Python guard, fired through the engine.
 */
let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-kiro-")));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
const hooksFile = (dir: string, name: string, hooks: unknown) =>
  write(join(dir, ".kiro/hooks", `${name}.json`), JSON.stringify({ version: "v1", hooks }));
const ran = (name: string) => {
  try {
    readFileSync(join(root, `${name}.stdin.json`));
    return true;
  } catch {
    return false;
  }
};
const stdinOf = (name: string) =>
  JSON.parse(readFileSync(join(root, `${name}.stdin.json`), "utf8")) as Record<string, unknown>;

/** A Python guard: saves its stdin; exits 2 with a reason on a force push. */
function guard(name: string): string {
  const file = write(
    join(root, `${name}_guard.py`),
    `import json, sys
data = json.load(sys.stdin)
with open(${JSON.stringify(join(root, `${name}.stdin.json`))}, "w") as f:
    json.dump(data, f)
if "--force" in data.get("tool_input", {}).get("command", ""):
    print("no force pushes", file=sys.stderr)
    sys.exit(2)
`,
  );
  return `/usr/bin/python3 '${file}'`;
}
const hook = (name: string, trigger: string, command: string, extra: object = {}) => ({
  name,
  trigger,
  action: { type: "command", command },
  ...extra,
});

async function engineFor() {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}
const fire = (engine: HookEngine, event: HookEvent) => engine.fire(event as never);
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });
const read = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: { file_path: "a" } });

describe("Kiro .kiro/hooks/*.json", () => {
  it("reads every file of the workspace's folder (once trusted) and of the user's", async () => {
    hooksFile(cwd, "a-guard", [hook("project", "PreToolUse", guard("project"))]);
    hooksFile(home, "z-guard", [hook("user", "PreToolUse", guard("user"))]);
    let { settings, engine } = await engineFor();
    expect(settings.hooks.map((h) => [h.scope, h.name, h.origin])).toEqual([
      ["project", "project", { format: "kiro", event: "PreToolUse" }],
      ["user", "user", { format: "kiro", event: "PreToolUse" }],
    ]);
    await fire(engine, bash("ls"));
    expect([ran("project"), ran("user")]).toEqual([false, true]);
    await trustProject({ cwd, home });
    ({ settings, engine } = await engineFor());
    expect(settings.problems).toEqual([]);
    await fire(engine, bash("ls"));
    expect([ran("project"), ran("user")]).toEqual([true, true]);
  });

  it("blocks on exit 2 with stderr, sends Kiro's stdin, and matches Kiro's tool name or ours", async () => {
    hooksFile(home, "guards", [
      hook("kiro-name", "PreToolUse", guard("kiro"), { matcher: "^execute_bash$" }),
      hook("our-name", "PreToolUse", guard("ours"), { matcher: "^Bash$" }),
    ]);
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    const result = await fire(engine, bash("git push --force"));
    expect([result.action, result.reason]).toEqual(["block", "no force pushes"]);
    expect(stdinOf("kiro")).toEqual({
      session_id: "s1",
      hook_event_name: "PreToolUse",
      cwd,
      tool_name: "execute_bash",
      tool_input: { command: "git push --force" },
    });
    expect(ran("ours")).toBe(true);
    rmSync(join(root, "kiro.stdin.json"));
    rmSync(join(root, "ours.stdin.json"));
    await fire(engine, read());
    expect([ran("kiro"), ran("ours")]).toEqual([false, false]);
  });

  it("warns about agent actions, triggers that do not run here and unknown fields; skips disabled hooks", async () => {
    const file = hooksFile(home, "mixed", [
      { name: "remind", trigger: "PreToolUse", action: { type: "agent", prompt: "Update tests" } },
      hook("lint", "PostFileSave", "npm run lint", { matcher: "\\.ts$" }),
      hook("off", "PreToolUse", "true", { enabled: false }),
      hook("kept", "Stop", "true", { color: "red" }),
    ]);
    const { settings } = await engineFor();
    expect(settings.problems.map((p) => [p.file, p.path, p.severity])).toEqual([
      [file, "hooks[0].action.type", "warning"],
      [file, "hooks[1].trigger", "warning"],
      [file, "hooks[3].color", "warning"],
    ]);
    expect(settings.hooks.map((h) => h.name)).toEqual(["kept"]);
  });

  it.each([
    ["hooks is not an array", { version: "v1", hooks: {} }, "hooks"],
    [
      "a hook without command",
      { version: "v1", hooks: [{ trigger: "PreToolUse", action: { type: "command" } }] },
      "hooks[0].action.command",
    ],
    [
      "a matcher RE2 cannot run",
      {
        version: "v1",
        hooks: [hook("x", "PreToolUse", "true", { matcher: "(a)\\1" })],
      },
      "hooks[0].matcher",
    ],
    [
      "a string timeout",
      { version: "v1", hooks: [hook("x", "PreToolUse", "true", { timeout: "30" })] },
      "hooks[0].timeout",
    ],
  ])("refuses a file with %s whole, naming the file and field", async (_, doc, path) => {
    const good = {
      name: "good",
      trigger: "Stop",
      action: { type: "command", command: guard("good") },
    };
    const body = Array.isArray((doc as { hooks: unknown }).hooks)
      ? { ...doc, hooks: [...(doc as { hooks: unknown[] }).hooks, good] }
      : doc;
    const file = write(join(home, ".kiro/hooks/bad.json"), JSON.stringify(body));
    const { settings, engine } = await engineFor();
    expect(settings.problems).toContainEqual(
      expect.objectContaining({ file, path, severity: "error" }),
    );
    expect(settings.hooks).toEqual([]);
    await fire(engine, createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
    expect(ran("good")).toBe(false);
  });

  it("is told by its path or by fileFormat: kiro for a named file", async () => {
    expect(detectFormat("/r/.kiro/hooks/guard.json")?.name).toBe("kiro");
    expect(detectFormat("/r/.kiro/agents/dev.json")).toBeUndefined();
    const named = write(
      join(root, "team.json"),
      JSON.stringify({ version: "v1", hooks: [hook("x", "SessionStart", "echo hi")] }),
    );
    const settings = await loadHookSettings({
      cwd,
      home,
      defaults: false,
      files: [named],
      fileFormat: "kiro",
    });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => h.event)).toEqual(["SessionStart"]);
  });
});
