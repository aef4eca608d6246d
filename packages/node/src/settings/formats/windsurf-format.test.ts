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
 * Windsurf's Cascade hooks (`.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`), as
 * Windsurf's hooks reference describes them: real files, scripts in Python, bash and node, fired
 * through the engine.
 */
let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-windsurf-")));
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
const projectFile = (hooks: unknown) =>
  write(join(cwd, ".windsurf/hooks.json"), JSON.stringify({ hooks }));
const userFile = (hooks: unknown) =>
  write(join(home, ".codeium/windsurf/hooks.json"), JSON.stringify({ hooks }));
const stdinOf = (name: string) =>
  JSON.parse(readFileSync(join(root, `${name}.stdin.json`), "utf8")) as Record<string, unknown>;
const ran = (name: string) => {
  try {
    readFileSync(join(root, `${name}.stdin.json`));
    return true;
  } catch {
    return false;
  }
};

/** A command policy in Python, as the reference's examples: exit 2 with a reason on stderr. */
function commandPolicy(name: string): string {
  const file = write(
    join(root, `${name}_policy.py`),
    `import json, sys
data = json.load(sys.stdin)
with open(${JSON.stringify(join(root, `${name}.stdin.json`))}, "w") as f:
    json.dump(data, f)
command = data["tool_info"]["command_line"]
if "rm -rf" in command:
    print("Blocked: destructive command", file=sys.stderr)
    sys.exit(2)
print("Command allowed")
`,
  );
  return `/usr/bin/python3 '${file}'`;
}

/** A bash script that saves its stdin, prints `out` (stdout) and `err` (stderr), exits `code`. */
function script(name: string, body: { out?: string; err?: string; code?: number } = {}): string {
  const file = write(
    join(root, `${name}.sh`),
    [
      "#!/usr/bin/env bash",
      `cat > '${join(root, `${name}.stdin.json`)}'`,
      body.out !== undefined ? `printf '%s' '${body.out}'` : "",
      body.err !== undefined ? `printf '%s' '${body.err}' >&2` : "",
      `exit ${body.code ?? 0}`,
      "",
    ].join("\n"),
  );
  return `bash '${file}'`;
}

async function engineFor() {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}
const fire = (engine: HookEngine, event: HookEvent) => engine.fire(event as never);
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });
const postBash = (command: string) =>
  createEvent("PostToolUse", {
    sessionId: "s1",
    tool: "Bash",
    args: { command },
    result: { success: true, output: "done", duration: 1 },
  });

describe("Windsurf hooks.json", () => {
  it("reads the workspace's file (once trusted) and the user's, and runs both", async () => {
    projectFile({ pre_run_command: [{ command: script("project"), show_output: true }] });
    userFile({ pre_run_command: [{ command: script("user") }] });
    let { settings, engine } = await engineFor();
    expect(settings.project?.trusted).toBe(false);
    expect(settings.hooks.map((h) => [h.scope, h.event, h.matcher, h.origin])).toEqual([
      ["project", "PreToolUse", "Bash", { format: "windsurf", event: "pre_run_command" }],
      ["user", "PreToolUse", "Bash", { format: "windsurf", event: "pre_run_command" }],
    ]);
    await fire(engine, bash("ls"));
    expect([ran("project"), ran("user")]).toEqual([false, true]);
    await trustProject({ cwd, home });
    ({ settings, engine } = await engineFor());
    expect(settings.problems).toEqual([]);
    await fire(engine, bash("ls"));
    expect([ran("project"), ran("user")]).toEqual([true, true]);
  });

  it("blocks a command when a pre_run_command hook exits 2, with stderr as the reason, and sends Cascade's stdin", async () => {
    userFile({ pre_run_command: [{ command: commandPolicy("guard"), show_output: true }] });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    const event = bash("rm -rf build");
    const blocked = await fire(engine, event);
    expect([blocked.action, blocked.reason]).toEqual(["block", "Blocked: destructive command"]);
    const stdin = stdinOf("guard");
    expect(stdin).toEqual({
      agent_action_name: "pre_run_command",
      trajectory_id: "s1",
      execution_id: event.eventId,
      timestamp: new Date(event.timestamp).toISOString(),
      tool_info: { command_line: "rm -rf build", cwd },
    });
    // Exit 0: allowed; what it printed is for Cascade's panel, not an answer.
    const allowed = await fire(engine, bash("ls"));
    expect([allowed.action, allowed.systemMessages, allowed.outcomes.map((o) => o.status)]).toEqual(
      ["continue", [], ["ok"]],
    );
    // The event names its tool: a Read never starts the command policy.
    rmSync(join(root, "guard.stdin.json"));
    await fire(
      engine,
      createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: { file_path: "a" } }),
    );
    expect(ran("guard")).toBe(false);
  });

  it("blocks a prompt from a node script on pre_user_prompt", async () => {
    const file = write(
      join(root, "prompt.js"),
      `let s = "";
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => {
  const { tool_info } = JSON.parse(s);
  if (/api[_-]?key/i.test(tool_info.user_prompt)) {
    process.stderr.write("Remove the API key from your prompt");
    process.exit(2);
  }
});
`,
    );
    userFile({ pre_user_prompt: [{ command: `node '${file}'` }] });
    const { engine } = await engineFor();
    const prompt = (text: string) =>
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: text });
    const result = await fire(engine, prompt("my API_KEY=abc"));
    expect([result.action, result.reason]).toEqual([
      "block",
      "Remove the API key from your prompt",
    ]);
    expect((await fire(engine, prompt("hello"))).action).toBe("continue");
  });

  it("never blocks on a post_* hook, and reads no JSON answer on a pre_* hook", async () => {
    userFile({
      post_run_command: [{ command: script("post", { err: "too late", code: 2 }) }],
      pre_write_code: [
        { command: script("write", { out: '{"decision":"deny","message":"no writes"}' }) },
      ],
    });
    const { engine } = await engineFor();
    const post = await fire(engine, postBash("make"));
    expect([post.action, (post.event as { result: { output: string } }).result.output]).toEqual([
      "continue",
      "done",
    ]);
    expect(stdinOf("post")).toMatchObject({
      agent_action_name: "post_run_command",
      tool_info: { command_line: "make" },
    });
    const write = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "MultiEdit",
      args: { file_path: "a.ts", edits: [{ old_string: "a", new_string: "b" }] },
    });
    expect((await fire(engine, write)).action).toBe("continue");
    expect(stdinOf("write")).toMatchObject({
      tool_info: { file_path: "a.ts", edits: [{ old_string: "a", new_string: "b" }] },
    });
  });

  it("counts another exit code as a failure that does not block", async () => {
    userFile({ pre_read_code: [{ command: script("crash", { err: "boom", code: 1 }) }] });
    const { engine } = await engineFor();
    const read = await fire(
      engine,
      createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: { file_path: "a" } }),
    );
    expect([read.action, read.outcomes.map((o) => [o.status, o.error?.message])]).toEqual([
      "continue",
      [["failed", "exit code 1: boom"]],
    ]);
  });

  it("counts a hook that outlives the engine's timeout as a failure that does not block", async () => {
    const slow = write(join(root, "slow.sh"), "#!/bin/sh\ncat >/dev/null\nexec sleep 60\n");
    userFile({ pre_run_command: [{ command: `sh '${slow}'` }] });
    // Cascade has no timeout field: the engine's default applies (set short in our own file).
    write(join(home, ".claude/settings.json"), JSON.stringify({ hooks: { defaultTimeout: 2000 } }));
    const { engine } = await engineFor();
    const timed = await fire(engine, bash("ls"));
    expect([timed.action, timed.outcomes.map((o) => o.status)]).toEqual(["continue", ["timeout"]]);
  });

  it("runs a hook in its working_directory, relative to the project", async () => {
    mkdirSync(join(cwd, "tools"));
    projectFile({ pre_read_code: [{ command: "pwd > ../where.txt", working_directory: "tools" }] });
    await trustProject({ cwd, home });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    await fire(
      engine,
      createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: { file_path: "a" } }),
    );
    expect(readFileSync(join(cwd, "where.txt"), "utf8").trim()).toBe(join(cwd, "tools"));
  });

  it.each([
    ["hooks is not an object", [], "hooks"],
    ["a hook is not an object", { pre_run_command: ["python3 x.py"] }, "hooks.pre_run_command[0]"],
    [
      "a hook has no command",
      { pre_run_command: [{ show_output: true }] },
      "hooks.pre_run_command[0].command",
    ],
    [
      "show_output is not a boolean",
      { pre_run_command: [{ command: "true", show_output: "yes" }] },
      "hooks.pre_run_command[0].show_output",
    ],
    [
      "working_directory is empty",
      { pre_run_command: [{ command: "true", working_directory: "" }] },
      "hooks.pre_run_command[0].working_directory",
    ],
  ])("refuses a file where %s whole, naming the file and field", async (_, bad, path) => {
    const good = script("good", { code: 2, err: "ran" });
    const hooks = Array.isArray(bad) ? bad : { ...bad, pre_user_prompt: [{ command: good }] };
    const file = userFile(hooks);
    const { settings, engine } = await engineFor();
    expect(settings.problems).toContainEqual(
      expect.objectContaining({ file, path, severity: "error" }),
    );
    expect(settings.hooks).toEqual([]);
    await fire(engine, createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" }));
    expect(ran("good")).toBe(false);
  });

  it("warns about an event that does not run here and an unknown field, and loads the rest", async () => {
    const file = userFile({
      post_setup_worktree: [{ command: "true" }],
      pre_read_code: [{ command: script("read"), powershell: "echo hi", color: "red" }],
    });
    const { settings } = await engineFor();
    expect(settings.problems.map((p) => [p.file, p.path, p.severity])).toEqual([
      [file, "hooks.post_setup_worktree", "warning"],
      [file, "hooks.pre_read_code[0].color", "warning"],
    ]);
    expect(settings.hooks.map((h) => h.origin?.event)).toEqual(["pre_read_code"]);
  });

  it("is told by its path or by fileFormat: windsurf for a named file", async () => {
    expect(detectFormat("/r/.windsurf/hooks.json")?.name).toBe("windsurf");
    expect(detectFormat("/home/u/.codeium/windsurf/hooks.json")?.name).toBe("windsurf");
    expect(detectFormat("/r/windsurf/hooks.json")).toBeUndefined();
    const named = write(
      join(root, "team.json"),
      JSON.stringify({ hooks: { pre_mcp_tool_use: [{ command: "true" }] } }),
    );
    const settings = await loadHookSettings({
      cwd,
      home,
      defaults: false,
      files: [named],
      fileFormat: "windsurf",
    });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => [h.event, h.matcher])).toEqual([["PreToolUse", "mcp__*"]]);
  });
});
