// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${path} placeholders are Claude Code's syntax
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

/** Every hook event of Claude Code's current reference. */
const CLAUDE_CODE_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "PermissionRequest",
  "PermissionDenied",
  "Notification",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Setup",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "SessionStart",
  "SessionEnd",
  "PreModelSwitch",
  "PostModelSwitch",
  "MessageDisplay",
  "DirectoryAdded",
];

/** One hook of every type, with every field each type takes. */
const EVERY_TYPE = [
  {
    type: "command",
    command: "./check.sh",
    timeout: 30,
    statusMessage: "Checking the command",
    if: "Bash(git push:*)",
    onFailure: "block",
    shell: "bash",
    once: true,
  },
  { type: "command", command: "node", args: ["check.mjs", "--strict"], async: true },
  { type: "command", command: "./late-check.sh", asyncRewake: true },
  {
    type: "http",
    url: "http://127.0.0.1:8080/hook",
    headers: { Authorization: "Bearer $HOOK_TOKEN", "X-Team": "${TEAM}" },
    allowedEnvVars: ["HOOK_TOKEN", "TEAM"],
    timeout: 10,
    statusMessage: "Asking the policy server",
  },
  { type: "prompt", prompt: "Is this command safe? $ARGUMENTS", model: "small", timeout: 30 },
  { type: "agent", prompt: "Verify the change: $ARGUMENTS", model: "small", timeout: 60 },
  {
    type: "mcp_tool",
    server: "policy",
    tool: "check",
    input: { command: "${tool_input.command}" },
    timeout: 60,
  },
];

let root: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-cc-settings-"));
  io = memoryIo({
    cwd: root,
    home: root,
    env: { A3S_HOOKS_MODEL: "small", HOOK_TOKEN: "t", TEAM: "core" },
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("a Claude Code settings file using the whole hooks reference", () => {
  it("validates with no problem at all: every hook type, field, event and settings key", async () => {
    const managed = file("managed-settings.json", {
      allowManagedHooksOnly: false,
      allowedHttpHookUrls: ["http://127.0.0.1:*/*"],
      httpHookAllowedEnvVars: ["HOOK_TOKEN", "TEAM"],
    });
    io.managedSettings = [managed];
    const hooks: Record<string, unknown> = Object.fromEntries(
      CLAUDE_CODE_EVENTS.map((event) => [
        event,
        [{ hooks: [{ type: "command", command: "true" }] }],
      ]),
    );
    hooks.PreToolUse = [{ matcher: "Bash", hooks: EVERY_TYPE }];
    const settings = file("settings.json", {
      disableAllHooks: false,
      mcpServers: { policy: { command: "node", args: ["server.mjs"], env: { MODE: "strict" } } },
      hooks,
    });

    const code = await runCli(["validate", "--no-defaults", "--settings", settings, "--json"], io);
    const report = JSON.parse(io.out);
    expect(report.problems).toEqual([]);
    expect(report.notRunnable).toEqual([]);
    expect(code).toBe(0);
    const events = new Set(report.hooks.map((h: { event: string }) => h.event));
    expect([...events].sort()).toEqual([...CLAUDE_CODE_EVENTS].sort());
    const types = report.hooks
      .filter((h: { event: string }) => h.event === "PreToolUse")
      .map((h: { type: string }) => h.type);
    expect(types).toEqual(["command", "command", "command", "http", "prompt", "agent", "mcp_tool"]);
  });

  it("runs Claude Code's exec form (command with args) with no shell", async () => {
    const settings = file("settings.json", {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: process.execPath,
                args: [
                  "-e",
                  "process.stderr.write('exec form: ' + process.argv[1]); process.exit(2)",
                  "$HOME;id",
                ],
              },
            ],
          },
        ],
      },
    });
    const code = await runCli(
      ["test", "PreToolUse", "--no-defaults", "--settings", settings, "--tool", "Bash"],
      io,
    );
    expect(code).toBe(2);
    // No shell read the argument: it arrives as written.
    expect(io.out).toContain("Result: block: exec form: $HOME;id");
  });
});
