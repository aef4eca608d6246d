import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings, engineOptionsFromSettings } from "../apply-hook-settings.js";
import { loadHookSettings } from "../load-hook-settings.js";
import { trustProject } from "../project-trust.js";
import { watchHookSettings } from "../watch-hook-settings.js";

let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-formats-"));
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

/** A script that saves its stdin to `<name>.stdin.json` and prints `out` (exit `code`). */
function script(name: string, out: string, code = 0, stderr = ""): string {
  const file = write(
    join(root, "scripts", `${name}.sh`),
    `#!/bin/sh\ncat > "${join(root, `${name}.stdin.json`)}"\nprintf '%s' '${out}'\n${stderr ? `printf '%s' '${stderr}' >&2\n` : ""}exit ${code}\n`,
  );
  return `sh ${file}`;
}
const stdinOf = (name: string) =>
  JSON.parse(readFileSync(join(root, `${name}.stdin.json`), "utf8")) as Record<string, unknown>;

async function engineFor() {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });
const read = (file_path: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: { file_path } });
const fire = (engine: HookEngine, event: HookEvent) => engine.fire(event as never);

describe("Cursor hooks.json", () => {
  it("gives beforeShellExecution Cursor's stdin and reads permission deny as a block", async () => {
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeShellExecution: [
          {
            command: script(
              "shell",
              '{"permission":"deny","user_message":"not here","agent_message":"use the API"}',
            ),
          },
        ],
      },
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => [h.event, h.matcher, h.origin])).toEqual([
      ["PreToolUse", "Bash", { format: "cursor", event: "beforeShellExecution" }],
    ]);
    const result = await fire(engine, bash("rm -rf /"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("use the API");
    const stdin = stdinOf("shell");
    expect(stdin).toMatchObject({
      hook_event_name: "beforeShellExecution",
      conversation_id: "s1",
      command: "rm -rf /",
      cwd,
      workspace_roots: [cwd],
    });
    expect(stdin).not.toHaveProperty("tool_input");
    // The shell hook does not fire for another tool.
    expect((await fire(engine, read("/etc/passwd"))).action).toBe("continue");
  });

  it("reads allow and ask as permissions, and exit code 2 as a deny", async () => {
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeReadFile: [{ command: script("read", '{"permission":"ask"}') }],
        beforeShellExecution: [{ command: script("sh2", "", 2, "blocked by policy") }],
      },
    });
    const { engine } = await engineFor();
    const asked = await fire(engine, read("/repo/.env"));
    expect([asked.action, asked.permission]).toEqual(["continue", "ask"]);
    expect(stdinOf("read")).toMatchObject({
      hook_event_name: "beforeReadFile",
      file_path: "/repo/.env",
    });
    const denied = await fire(engine, bash("ls"));
    expect([denied.action, denied.reason]).toEqual(["block", "blocked by policy"]);
  });

  it("blocks a prompt on continue: false and continues a stop on followup_message", async () => {
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeSubmitPrompt: [
          { command: script("prompt", '{"continue":false,"user_message":"no secrets"}') },
        ],
        stop: [{ command: script("stop", '{"followup_message":"run the tests too"}') }],
      },
    });
    const { engine } = await engineFor();
    const prompt = await fire(
      engine,
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "key=abc" }),
    );
    expect([prompt.action, prompt.reason]).toEqual(["block", "no secrets"]);
    expect(stdinOf("prompt")).toMatchObject({ prompt: "key=abc", attachments: [] });
    const stop = await fire(
      engine,
      createEvent("Stop", { sessionId: "s1", stopHookActive: false }),
    );
    expect([stop.action, stop.reason]).toEqual(["block", "run the tests too"]);
    expect(stdinOf("stop")).toMatchObject({
      hook_event_name: "stop",
      status: "completed",
      loop_count: 0,
    });
  });

  it("treats plain text on stdout as a failure (Cursor reads JSON only), failClosed as block", async () => {
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeShellExecution: [
          { command: script("open", "all good") },
          { command: script("closed", "not json either"), failClosed: true },
        ],
      },
    });
    const { engine } = await engineFor();
    const result = await fire(engine, bash("ls"));
    expect(result.action).toBe("block");
    const outcomes = result.outcomes.map((o) => [o.status, o.error?.code]);
    expect(outcomes).toEqual([
      ["failed", "INVALID_OUTPUT"],
      ["failed", "INVALID_OUTPUT"],
    ]);
  });

  it("names the file, the JSON path and the fix for bad entries", async () => {
    write(join(home, ".cursor/hooks.json"), {
      version: 2,
      hooks: {
        beforeShellExecution: [{ command: 42 }, { command: "ok", timeout: "soon" }],
        beforeShellExec: [{ command: "typo" }],
      },
    });
    const { settings } = await engineFor();
    expect(settings.problems.map((p) => [p.severity, p.path])).toEqual([
      ["warning", "version"],
      ["warning", "hooks.beforeShellExec"],
      ["error", "hooks.beforeShellExecution[0].command"],
      ["error", "hooks.beforeShellExecution[1].timeout"],
    ]);
    expect(settings.problems.every((p) => p.file.endsWith(".cursor/hooks.json"))).toBe(true);
    expect(settings.hooks).toEqual([]);
  });

  it("runs a project's hooks.json only once the project is trusted", async () => {
    write(join(cwd, ".cursor/hooks.json"), {
      version: 1,
      hooks: { beforeShellExecution: [{ command: script("p", '{"permission":"deny"}') }] },
    });
    const before = await engineFor();
    expect(before.settings.hooks.map((h) => [h.scope, h.trusted])).toEqual([["project", false]]);
    expect((await fire(before.engine, bash("ls"))).action).toBe("continue");
    await trustProject({ cwd, home });
    const after = await engineFor();
    const result = await fire(after.engine, bash("ls"));
    expect([result.action, result.reason]).toEqual(["block", "denied by a Cursor hook"]);
  });
});

describe("Gemini CLI settings.json", () => {
  it("gives BeforeTool Gemini's stdin and tool names, and matches on them", async () => {
    write(join(home, ".gemini/settings.json"), {
      general: { vimMode: true },
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [
              {
                type: "command",
                name: "guard",
                command: script("bt", '{"decision":"deny","reason":"no rm"}'),
                timeout: 5000,
              },
            ],
          },
        ],
      },
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => [h.event, h.definition.timeout, h.origin])).toEqual([
      ["PreToolUse", 5, { format: "gemini", event: "BeforeTool", matcher: "run_shell_command" }],
    ]);
    const result = await fire(engine, bash("rm x"));
    expect([result.action, result.reason]).toEqual(["block", "no rm"]);
    expect(stdinOf("bt")).toMatchObject({
      hook_event_name: "BeforeTool",
      session_id: "s1",
      tool_name: "run_shell_command",
      tool_input: { command: "rm x" },
    });
    expect(typeof stdinOf("bt").timestamp).toBe("string");
    // Read is read_file to Gemini CLI: the matcher does not take it.
    expect((await fire(engine, read("a.txt"))).action).toBe("continue");
  });

  it("rewrites tool_input, adds context and reads exit code 2 as a block", async () => {
    write(join(home, ".gemini/settings.json"), {
      hooks: {
        BeforeTool: [
          {
            matcher: "read_.*",
            hooks: [
              {
                type: "command",
                command: script(
                  "rw",
                  '{"hookSpecificOutput":{"tool_input":{"file_path":"safe.txt"}},"systemMessage":"redirected"}',
                ),
              },
            ],
          },
          {
            matcher: "run_shell_command",
            hooks: [{ type: "command", command: script("x2", "", 2, "nope") }],
          },
        ],
        BeforeAgent: [
          {
            hooks: [
              {
                type: "command",
                command: script(
                  "ctx",
                  '{"hookSpecificOutput":{"additionalContext":"branch: main"}}',
                ),
              },
            ],
          },
        ],
      },
    });
    const { engine } = await engineFor();
    const rewritten = await fire(engine, read("secret.txt"));
    expect(rewritten.action).toBe("continue");
    expect((rewritten.event as { args: unknown }).args).toEqual({ file_path: "safe.txt" });
    expect(rewritten.systemMessages).toEqual(["redirected"]);
    const blocked = await fire(engine, bash("ls"));
    expect([blocked.action, blocked.reason]).toEqual(["block", "nope"]);
    const prompt = await fire(
      engine,
      createEvent("UserPromptSubmit", { sessionId: "s1", prompt: "hi" }),
    );
    expect(prompt.additionalContext).toBe("branch: main");
    expect(stdinOf("ctx")).toMatchObject({ hook_event_name: "BeforeAgent", prompt: "hi" });
  });

  it("hides a tool result on AfterTool deny: the reason replaces it", async () => {
    write(join(home, ".gemini/settings.json"), {
      hooks: {
        AfterTool: [
          {
            hooks: [
              {
                type: "command",
                command: script("at", '{"decision":"deny","reason":"[redacted]"}'),
              },
            ],
          },
        ],
      },
    });
    const { engine } = await engineFor();
    const result = await fire(
      engine,
      createEvent("PostToolUse", {
        sessionId: "s1",
        tool: "Bash",
        args: { command: "cat .env" },
        result: { success: true, output: "KEY=1", duration: 3 },
      }),
    );
    expect(result.action).toBe("continue");
    expect((result.event as { result: { output: string } }).result.output).toBe("[redacted]");
    expect(stdinOf("at")).toMatchObject({
      tool_name: "run_shell_command",
      tool_response: { llmContent: "KEY=1", returnDisplay: "KEY=1" },
    });
  });

  it("reports an unknown event, a bad type and a bad timeout with their JSON paths", async () => {
    write(join(home, ".gemini/settings.json"), {
      hooks: {
        BeforeModel: [{ hooks: [{ type: "command", command: "x" }] }],
        BeforeTool: [
          {
            hooks: [
              { type: "script", command: "x" },
              { type: "command", command: "x", timeout: -1 },
            ],
          },
        ],
      },
    });
    const { settings } = await engineFor();
    expect(settings.problems.map((p) => [p.severity, p.path])).toEqual([
      ["warning", "hooks.BeforeModel"],
      ["error", "hooks.BeforeTool[0].hooks[0].type"],
      ["error", "hooks.BeforeTool[0].hooks[1].timeout"],
    ]);
  });
});

describe("the same command in several formats", () => {
  it("runs once per format and per matcher, each in its own dialect", async () => {
    const command = script("same", "{}");
    write(join(home, ".claude/settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    });
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: { beforeShellExecution: [{ command }] },
    });
    write(join(home, ".gemini/settings.json"), {
      hooks: {
        BeforeTool: [
          { matcher: "run_shell_command", hooks: [{ type: "command", command }] },
          { matcher: "read_file", hooks: [{ type: "command", command }] },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const handle = applyHookSettings(new HookEngine(), settings, { projectDir: cwd });
    expect(handle.skipped).toEqual([]);
    expect(handle.applied.map((a) => a.hook.origin?.format ?? "claude-code")).toEqual([
      "claude-code",
      "cursor",
      "gemini",
      "gemini",
    ]);
  });
});

describe("GitHub Copilot .github/hooks/*.json", () => {
  it("reads every JSON file of the folder, by name, and denies by permissionDecision", async () => {
    write(join(cwd, ".github/hooks/b-audit.json"), {
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: script("audit", "") }] },
    });
    write(join(cwd, ".github/hooks/a-guard.json"), {
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: "command",
            bash: script("guard", '{"permissionDecision":"deny","permissionDecisionReason":"no"}'),
            timeoutSec: 5,
          },
        ],
      },
    });
    write(join(cwd, ".github/hooks/notes.txt"), "not a hook file");
    await trustProject({ cwd, home });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => [h.source.split("/").pop(), h.definition.timeout])).toEqual([
      ["a-guard.json", 5],
      ["b-audit.json", 30],
    ]);
    const result = await fire(engine, bash("ls"));
    expect([result.action, result.reason]).toEqual(["block", "no"]);
    expect(stdinOf("guard")).toMatchObject({ toolName: "bash", toolArgs: '{"command":"ls"}', cwd });
  });
});

describe("other agents' files under watchHookSettings", () => {
  it("picks up a Cursor hooks.json created after the watcher started", async () => {
    const engine = new HookEngine();
    const watcher = await watchHookSettings(
      engine,
      { cwd, home, managedSettings: [] },
      { debounceMs: 10 },
    );
    try {
      expect(watcher.handle.applied).toEqual([]);
      const reloaded = new Promise<string[]>((done) => {
        const stop = watcher.on("reloaded", ({ files }) => {
          stop();
          done(files);
        });
      });
      write(join(home, ".cursor/hooks.json"), {
        version: 1,
        hooks: { beforeShellExecution: [{ command: script("w", '{"permission":"deny"}') }] },
      });
      expect(await reloaded).toEqual([join(home, ".cursor/hooks.json")]);
      expect((await fire(engine, bash("ls"))).action).toBe("block");
    } finally {
      await watcher.close();
    }
  });
});
