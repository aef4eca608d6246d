import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings, engineOptionsFromSettings } from "../apply-hook-settings.js";
import { loadHookSettings } from "../load-hook-settings.js";
import { trustProject } from "../project-trust.js";

/**
 * Codex's `.codex/hooks.json`, as OpenAI's Codex hooks reference describes it: real files, real
 * shell scripts, fired through the engine.
 */
let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-codex-")));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** A bash script that saves its stdin to `<name>.stdin.json`, prints `out`, `err` on stderr, exits `code`. */
function script(name: string, body: { out?: string; err?: string; code?: number } = {}): string {
  const file = write(
    join(root, "scripts", `${name}.sh`),
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

const codexFile = (dir: string, hooks: unknown) => write(join(dir, ".codex/hooks.json"), { hooks });
const group = (command: string, matcher?: string) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: [{ type: "command", command, timeout: 30 }],
});

async function engineFor(options: { maxFileBytes?: number } = {}) {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [], ...options });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}
const fire = (engine: HookEngine, event: HookEvent) => engine.fire(event as never);
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe("Codex .codex/hooks.json", () => {
  it("reads the project's file (once trusted) and the user's, and runs both", async () => {
    codexFile(cwd, { PreToolUse: [group(script("project"), "Bash")] });
    codexFile(home, { PreToolUse: [group(script("user"), "Bash")] });
    let { settings } = await engineFor();
    expect(settings.problems).toEqual([
      expect.objectContaining({
        file: join(cwd, ".codex/hooks.json"),
        message: expect.stringContaining("not trusted yet"),
      }),
    ]);
    expect(settings.hooks.map((h) => [h.scope, h.event, h.origin, h.trusted])).toEqual([
      ["project", "PreToolUse", { format: "codex", event: "PreToolUse", matcher: "Bash" }, false],
      ["user", "PreToolUse", { format: "codex", event: "PreToolUse", matcher: "Bash" }, true],
    ]);
    await trustProject({ cwd, home });
    const loaded = await engineFor();
    settings = loaded.settings;
    expect(settings.problems).toEqual([]);
    expect(settings.project?.trusted).toBe(true);
    expect((await fire(loaded.engine, bash("ls"))).action).toBe("continue");
    expect([ran("project"), ran("user")]).toEqual([true, true]);
  });

  it("leaves the files out under otherFormats: false", async () => {
    codexFile(home, { PreToolUse: [group(script("user"))] });
    const settings = await loadHookSettings({
      cwd,
      home,
      managedSettings: [],
      otherFormats: false,
    });
    expect(settings.hooks).toEqual([]);
  });

  it("counts a project's new .codex/hooks.json as a change since it was trusted", async () => {
    await trustProject({ cwd, home });
    codexFile(cwd, { PreToolUse: [group(script("guard", { code: 2, err: "no" }), "Bash")] });
    const { settings, engine } = await engineFor();
    expect(settings.project?.trusted).toBe(false);
    expect((await fire(engine, bash("ls"))).action).toBe("continue");
    expect(ran("guard")).toBe(false);
  });

  it("changes the project's trust hash: a project trusted before Codex's files were read counts as changed", async () => {
    codexFile(cwd, { PreToolUse: [group(script("guard"), "Bash")] });
    // otherFormats: false reads what the engine read before Codex's files were known.
    const before = await loadHookSettings({ cwd, home, managedSettings: [], otherFormats: false });
    rmSync(join(cwd, ".codex"), { recursive: true });
    const without = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(without.project?.hash).toBe(before.project?.hash);
    codexFile(cwd, { PreToolUse: [group(script("guard"), "Bash")] });
    const now = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(now.project?.hash).not.toBe(before.project?.hash);
  });

  it("blocks a Bash call when a PreToolUse hook exits 2, with its stderr as the reason", async () => {
    codexFile(home, {
      PreToolUse: [group(script("guard", { code: 2, err: "rm is not allowed here" }), "Bash")],
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    const result = await fire(engine, bash("rm -rf build"));
    expect([result.action, result.reason]).toEqual(["block", "rm is not allowed here"]);
    expect(stdinOf("guard")).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    // The matcher is the tool name: a Read call never starts the script.
    rmSync(join(root, "guard.stdin.json"));
    const read = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Read",
      args: { file_path: "a" },
    });
    expect((await fire(engine, read)).action).toBe("continue");
    expect(ran("guard")).toBe(false);
  });

  it("blocks on permissionDecision deny, with permissionDecisionReason", async () => {
    const out = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "use the deploy script",
      },
    });
    codexFile(home, { PreToolUse: [group(script("deny", { out }), "^Bash$")] });
    const { engine } = await engineFor();
    const result = await fire(engine, bash("kubectl apply"));
    expect([result.action, result.reason]).toEqual(["block", "use the deploy script"]);
  });

  it("gives PostToolUse Codex's stdin fields", async () => {
    codexFile(home, { PostToolUse: [group(script("post"), "Bash")] });
    const { engine } = await engineFor();
    const event = createEvent("PostToolUse", {
      sessionId: "s9",
      tool: "Bash",
      args: { command: "echo hi" },
      toolUseId: "call_1",
      result: { success: true, output: "hi", duration: 3 },
      metadata: { turnId: "turn-4", model: "gpt-5-codex" },
    });
    expect((await fire(engine, event)).action).toBe("continue");
    expect(stdinOf("post")).toMatchObject({
      session_id: "s9",
      transcript_path: null,
      cwd: expect.any(String),
      hook_event_name: "PostToolUse",
      model: "gpt-5-codex",
      turn_id: "turn-4",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      tool_use_id: "call_1",
      tool_response: { stdout: "hi" },
    });
  });

  it("lets a matcher on apply_patch take the engine's Edit and Write", async () => {
    codexFile(home, {
      PreToolUse: [group(script("patch", { code: 2, err: "frozen" }), "apply_patch")],
    });
    const { engine } = await engineFor();
    const edit = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Edit",
      args: { file_path: "a.ts", old_string: "a", new_string: "b" },
    });
    expect((await fire(engine, edit)).reason).toBe("frozen");
    expect(stdinOf("patch")).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: "a.ts" },
    });
    expect((await fire(engine, bash("ls"))).action).toBe("continue");
  });

  it("adds SessionStart's plain stdout as context, matched on the source", async () => {
    codexFile(home, {
      SessionStart: [group(script("start", { out: "branch: main" }), "startup|resume")],
    });
    const { engine } = await engineFor();
    const resume = createEvent("SessionStart", { sessionId: "s1", source: "resume" });
    expect((await fire(engine, resume)).additionalContext).toBe("branch: main");
    expect(stdinOf("start")).toMatchObject({ hook_event_name: "SessionStart", source: "resume" });
    rmSync(join(root, "start.stdin.json"));
    await fire(engine, createEvent("SessionStart", { sessionId: "s1", source: "clear" }));
    expect(ran("start")).toBe(false);
  });

  it("warns about a matcher on Stop and ignores it: the hook runs on every stop", async () => {
    const out = '{"decision":"block","reason":"run the tests"}';
    codexFile(home, { Stop: [group(script("stop", { out }), "never-matches")] });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([
      expect.objectContaining({
        file: join(home, ".codex/hooks.json"),
        path: "hooks.Stop[0].matcher",
        severity: "warning",
        message: expect.stringContaining("Codex reads no matcher on Stop"),
      }),
    ]);
    expect(settings.hooks[0]!.origin).toEqual({ format: "codex", event: "Stop" });
    const result = await fire(
      engine,
      createEvent("Stop", { sessionId: "s1", stopHookActive: false }),
    );
    expect([result.action, result.reason]).toEqual(["block", "run the tests"]);
    expect(stdinOf("stop")).toMatchObject({ hook_event_name: "Stop", stop_hook_active: false });
  });

  it("blocks on exit 2 only where Codex does: elsewhere stderr is shown and the event goes on", async () => {
    const two = (name: string) => group(script(name, { code: 2, err: `${name} said no` }));
    codexFile(home, {
      SessionStart: [two("start")],
      PreCompact: [two("compact")],
      UserPromptSubmit: [two("prompt")],
      PostToolUse: [two("post")],
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    const start = await fire(
      engine,
      createEvent("SessionStart", { sessionId: "s1", source: "startup" }),
    );
    expect([start.action, start.systemMessages]).toEqual(["continue", ["start said no"]]);
    const compact = await fire(
      engine,
      createEvent("PreCompact", { sessionId: "s1", trigger: "auto" }),
    );
    expect([compact.action, compact.systemMessages]).toEqual(["continue", ["compact said no"]]);
    const prompt = await fire(
      engine,
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" }),
    );
    expect([prompt.action, prompt.reason]).toEqual(["block", "prompt said no"]);
    const post = await fire(
      engine,
      createEvent("PostToolUse", {
        sessionId: "s1",
        tool: "Bash",
        args: { command: "ls" },
        result: { success: true, output: "a", duration: 1 },
      }),
    );
    expect([post.action, post.feedback]).toEqual(["continue", "post said no"]);
  });

  it("starts the matching hooks of one event together", async () => {
    const wait = (name: string) =>
      `touch '${join(root, name)}'; for i in $(seq 200); do [ -e '${join(root, name === "a" ? "b" : "a")}' ] && { touch '${join(root, `${name}.saw`)}'; exit 0; }; sleep 0.1; done; exit 1`;
    codexFile(home, { PreToolUse: [group(wait("a")), group(wait("b"))] });
    const { engine } = await engineFor();
    const result = await fire(engine, bash("ls"));
    expect(result.action).toBe("continue");
    // Each saw the other start while it was still running: neither waited for the other.
    expect([existsSync(join(root, "a.saw")), existsSync(join(root, "b.saw"))]).toEqual([
      true,
      true,
    ]);
  });

  it.each([
    ["hooks is not an object", [], "hooks"],
    ["a group is not an object", { PreToolUse: ["bash x.sh"] }, "hooks.PreToolUse[0]"],
    ["the event's list is not an array", { PreToolUse: { hooks: [] } }, "hooks.PreToolUse"],
    [
      "a hook without command",
      { PreToolUse: [{ hooks: [{ type: "command" }] }] },
      "hooks.PreToolUse[0].hooks[0].command",
    ],
    [
      "a timeout that is a string",
      { PreToolUse: [{ hooks: [{ type: "command", command: "true", timeout: "10" }] }] },
      "hooks.PreToolUse[0].hooks[0].timeout",
    ],
    [
      "a type that is not command",
      { PreToolUse: [{ hooks: [{ type: "prompt", prompt: "check" }] }] },
      "hooks.PreToolUse[0].hooks[0].type",
    ],
    [
      "a matcher that is not a string",
      { PreToolUse: [{ matcher: 3, hooks: [{ type: "command", command: "true" }] }] },
      "hooks.PreToolUse[0].matcher",
    ],
  ])(
    "refuses a file where %s, naming the file and field; none of it runs",
    async (_, bad, path) => {
      const good = script("good", { code: 2, err: "ran" });
      const hooks = Array.isArray(bad)
        ? bad
        : {
            ...(bad as Record<string, unknown[]>),
            PostToolUse: [group(good)],
            Stop: [group(good)],
          };
      const file = codexFile(home, hooks);
      const { settings, engine } = await engineFor();
      expect(settings.problems).toContainEqual(
        expect.objectContaining({ file, path, severity: "error" }),
      );
      expect(settings.hooks).toEqual([]);
      await fire(engine, createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
      expect(ran("good")).toBe(false);
    },
  );

  it("refuses a file larger than the size limit whole, naming it", async () => {
    const file = codexFile(home, {
      Stop: [group(script("good"))],
      PreCompact: [{ hooks: [{ type: "command", command: `true #${"x".repeat(5000)}` }] }],
    });
    const { settings, engine } = await engineFor({ maxFileBytes: 2048 });
    expect(settings.problems).toEqual([
      expect.objectContaining({
        file,
        severity: "error",
        message: expect.stringMatching(/large|bytes/),
      }),
    ]);
    expect(settings.hooks).toEqual([]);
    await fire(engine, createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
    expect(ran("good")).toBe(false);
  });

  it("warns about an unknown event and unknown fields (not statusMessage, Codex's own), and loads the rest", async () => {
    const file = codexFile(home, {
      Stop: [
        {
          hooks: [
            {
              type: "command",
              command: script("stop"),
              timeout: 5,
              statusMessage: "Checking",
              color: "red",
            },
          ],
          label: "mine",
        },
      ],
      AfterEverything: [group("true")],
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems.map((p) => [p.file, p.path, p.severity])).toEqual([
      [file, "hooks.AfterEverything", "warning"],
      [file, "hooks.Stop[0].label", "warning"],
      [file, "hooks.Stop[0].hooks[0].color", "warning"],
    ]);
    expect(settings.hooks.map((h) => [h.event, h.definition.timeout])).toEqual([["Stop", 5]]);
    await fire(engine, createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
    expect(ran("stop")).toBe(true);
  });

  it("is told by its path or by fileFormat: codex for a named file", async () => {
    const named = write(join(root, "elsewhere.json"), { hooks: { Stop: [group("true")] } });
    const settings = await loadHookSettings({
      cwd,
      home,
      defaults: false,
      files: [named],
      fileFormat: "codex",
    });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => h.origin)).toEqual([{ format: "codex", event: "Stop" }]);
  });
});
