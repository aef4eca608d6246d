import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createEvent, HookEngine, type HookEvent, type HookResult } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyHookSettings, engineOptionsFromSettings } from "../apply-hook-settings.js";
import type { HookFormatName } from "../hook-settings.js";
import { loadHookSettings } from "../load-hook-settings.js";
import { HOOK_FORMATS } from "./hook-formats.js";

/**
 * The compatibility tables of docs/formats/<name>.md, checked: every event row marked supported
 * or partial has a case here (its stdin, as the agent's reference describes it, and its answer
 * read by the agent's rules), every case is such a row, and no row marked not supported loads.
 */
const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../../docs/formats");

interface Case {
  event: HookEvent;
  /** Fields the script must receive (a subset of its stdin). */
  stdin: Record<string, unknown>;
  /** What the script prints on stdout (on stderr when it exits with `exit`). */
  answer: string;
  /** The script's exit code, for agents that answer by it (Windsurf); default 0. */
  exit?: number;
  /** What the engine's merged result must hold. */
  expected: (result: HookResult) => unknown;
  want: unknown;
}

const s = { sessionId: "s1" };
const bash = (command: string) =>
  createEvent("PreToolUse", { ...s, tool: "Bash", args: { command } });
const post = (tool: string, args: Record<string, unknown>, output: string) =>
  createEvent("PostToolUse", { ...s, tool, args, result: { success: true, output, duration: 7 } });
const blocked = (r: HookResult) => [r.action, r.reason];
const output = (r: HookResult) => (r.event as { result: { output: string } }).result.output;

const CASES: Record<HookFormatName, Record<string, Case>> = {
  cursor: {
    beforeShellExecution: {
      event: bash("git push --force"),
      stdin: { command: "git push --force", conversation_id: "s1" },
      answer:
        '{"permission":"deny","user_message":"no force","agent_message":"push without --force"}',
      expected: blocked,
      want: ["block", "push without --force"],
    },
    beforeMCPExecution: {
      event: createEvent("PreToolUse", { ...s, tool: "mcp__db__query", args: { sql: "drop" } }),
      stdin: { tool_name: "query", tool_input: { sql: "drop" } },
      answer: '{"permission":"ask","user_message":"check this"}',
      expected: (r) => [r.action, r.permission, r.systemMessages],
      want: ["continue", "ask", ["check this"]],
    },
    beforeReadFile: {
      event: createEvent("PreToolUse", { ...s, tool: "Read", args: { file_path: "/r/.env" } }),
      stdin: { file_path: "/r/.env", attachments: [] },
      answer: '{"permission":"deny"}',
      expected: blocked,
      want: ["block", "denied by a Cursor hook"],
    },
    afterShellExecution: {
      event: post("Bash", { command: "ls" }, "a\nb"),
      stdin: { command: "ls", output: "a\nb", duration: 7 },
      answer: '{"permission":"deny"}',
      expected: (r) => [r.action, output(r)],
      want: ["continue", "a\nb"],
    },
    afterMCPExecution: {
      event: post("mcp__db__query", { sql: "select 1" }, '{"rows":1}'),
      stdin: { tool_name: "query", tool_input: { sql: "select 1" }, result_json: '{"rows":1}' },
      answer: "{}",
      expected: (r) => r.action,
      want: "continue",
    },
    afterFileEdit: {
      event: post("Edit", { file_path: "/r/a.ts", old_string: "x = 1", new_string: "x = 2" }, "ok"),
      stdin: { file_path: "/r/a.ts", edits: [{ old_string: "x = 1", new_string: "x = 2" }] },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
    beforeSubmitPrompt: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "my token is abc" }),
      stdin: { prompt: "my token is abc" },
      answer: '{"continue":false,"user_message":"remove the token"}',
      expected: blocked,
      want: ["block", "remove the token"],
    },
    afterAgentResponse: {
      event: createEvent("GenerateEnd", {
        ...s,
        prompt: "p",
        model: { provider: "x", name: "m" },
        response: {
          text: "done",
          toolCalls: [],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          duration: 1,
        },
      }),
      stdin: { text: "done" },
      answer: "{}",
      expected: (r) => r.action,
      want: "continue",
    },
    stop: {
      event: createEvent("Stop", { ...s, stopHookActive: true }),
      stdin: { status: "completed", loop_count: 1 },
      answer: '{"followup_message":"now update the changelog"}',
      expected: blocked,
      want: ["block", "now update the changelog"],
    },
  },
  copilot: {
    preToolUse: {
      event: bash("rm -rf /"),
      stdin: { toolName: "bash", toolArgs: '{"command":"rm -rf /"}' },
      answer: '{"permissionDecision":"deny","permissionDecisionReason":"dangerous command"}',
      expected: blocked,
      want: ["block", "dangerous command"],
    },
    postToolUse: {
      event: post("Edit", { file_path: "a.ts" }, "edited"),
      stdin: {
        toolName: "edit",
        toolResult: { resultType: "success", textResultForLlm: "edited" },
      },
      answer: '{"permissionDecision":"deny"}',
      expected: (r) => [r.action, output(r)],
      want: ["continue", "edited"],
    },
    userPromptSubmitted: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "fix the bug" }),
      stdin: { prompt: "fix the bug" },
      answer: '{"permissionDecision":"deny"}',
      expected: (r) => r.action,
      want: "continue",
    },
    sessionStart: {
      event: createEvent("SessionStart", { ...s, source: "resume" }),
      stdin: { source: "resume" },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
    sessionEnd: {
      event: createEvent("SessionEnd", { ...s, reason: "complete" }),
      stdin: { reason: "complete" },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
  },
  gemini: {
    BeforeTool: {
      event: bash("rm -rf /"),
      stdin: { tool_name: "run_shell_command", tool_input: { command: "rm -rf /" } },
      answer: '{"decision":"deny","reason":"dangerous"}',
      expected: blocked,
      want: ["block", "dangerous"],
    },
    AfterTool: {
      event: post("Read", { file_path: "k" }, "SECRET"),
      stdin: { tool_name: "read_file", tool_response: { llmContent: "SECRET" } },
      answer: '{"hookSpecificOutput":{"tool_output":"[hidden]","additionalContext":"redacted"}}',
      expected: (r) => [output(r), r.additionalContext],
      want: ["[hidden]", "redacted"],
    },
    BeforeAgent: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "hello" }),
      stdin: { prompt: "hello" },
      answer: '{"continue":false,"stopReason":"paused by policy"}',
      expected: blocked,
      want: ["block", "paused by policy"],
    },
    AfterAgent: {
      event: createEvent("Stop", { ...s, stopHookActive: false, responseText: "all done" }),
      stdin: { prompt_response: "all done", stop_hook_active: false },
      answer: '{"decision":"deny","reason":"tests are failing; fix them"}',
      expected: blocked,
      want: ["block", "tests are failing; fix them"],
    },
    SessionStart: {
      event: createEvent("SessionStart", { ...s, source: "resume" }),
      stdin: { source: "resume" },
      answer: '{"decision":"deny","hookSpecificOutput":{"additionalContext":"on branch main"}}',
      expected: (r) => [r.action, r.additionalContext],
      want: ["continue", "on branch main"],
    },
    SessionEnd: {
      event: createEvent("SessionEnd", { ...s, reason: "exit" }),
      stdin: { reason: "exit" },
      answer: '{"systemMessage":"bye"}',
      expected: (r) => r.systemMessages,
      want: ["bye"],
    },
    Notification: {
      event: createEvent("Notification", {
        ...s,
        message: "allow Bash?",
        notificationType: "ToolPermission",
      }),
      stdin: { notification_type: "ToolPermission", message: "allow Bash?" },
      answer: "{}",
      expected: (r) => r.action,
      want: "continue",
    },
    PreCompress: {
      event: createEvent("PreCompact", { ...s, trigger: "auto" }),
      stdin: { trigger: "auto" },
      answer: '{"decision":"deny"}',
      expected: (r) => r.action,
      want: "continue",
    },
  },
  windsurf: {
    pre_run_command: {
      event: bash("rm -rf /"),
      stdin: { trajectory_id: "s1", tool_info: { command_line: "rm -rf /" } },
      answer: "dangerous command",
      exit: 2,
      expected: blocked,
      want: ["block", "dangerous command"],
    },
    post_run_command: {
      event: post("Bash", { command: "ls" }, "a\nb"),
      stdin: { tool_info: { command_line: "ls" } },
      answer: "too late to block",
      exit: 2,
      expected: (r) => [r.action, output(r)],
      want: ["continue", "a\nb"],
    },
    pre_read_code: {
      event: createEvent("PreToolUse", { ...s, tool: "Read", args: { file_path: "/r/.env" } }),
      stdin: { tool_info: { file_path: "/r/.env" } },
      answer: "no secrets",
      exit: 2,
      expected: blocked,
      want: ["block", "no secrets"],
    },
    post_read_code: {
      event: post("Read", { file_path: "/r/a.ts" }, "text"),
      stdin: { tool_info: { file_path: "/r/a.ts" } },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
    pre_write_code: {
      event: createEvent("PreToolUse", {
        ...s,
        tool: "Edit",
        args: { file_path: "/r/a.ts", old_string: "x = 1", new_string: "x = 2" },
      }),
      stdin: {
        tool_info: { file_path: "/r/a.ts", edits: [{ old_string: "x = 1", new_string: "x = 2" }] },
      },
      // Cascade reads no JSON: only exit code 2 blocks.
      answer: '{"decision":"deny","message":"no"}',
      expected: (r) => r.action,
      want: "continue",
    },
    post_write_code: {
      event: post("Write", { file_path: "/r/n.ts", content: "x" }, "ok"),
      stdin: { tool_info: { file_path: "/r/n.ts", edits: [{ old_string: "", new_string: "x" }] } },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
    pre_mcp_tool_use: {
      event: createEvent("PreToolUse", { ...s, tool: "mcp__db__query", args: { sql: "drop" } }),
      stdin: {
        tool_info: {
          mcp_server_name: "db",
          mcp_tool_name: "query",
          mcp_tool_arguments: { sql: "drop" },
        },
      },
      answer: "no drops",
      exit: 2,
      expected: blocked,
      want: ["block", "no drops"],
    },
    post_mcp_tool_use: {
      event: post("mcp__db__query", { sql: "select 1" }, '{"rows":1}'),
      stdin: { tool_info: { mcp_server_name: "db", mcp_result: '{"rows":1}' } },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
    pre_user_prompt: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "my token is abc" }),
      stdin: { tool_info: { user_prompt: "my token is abc" } },
      answer: "remove the token",
      exit: 2,
      expected: blocked,
      want: ["block", "remove the token"],
    },
    post_cascade_response: {
      event: createEvent("GenerateEnd", {
        ...s,
        prompt: "p",
        model: { provider: "x", name: "m" },
        response: {
          text: "done",
          toolCalls: [],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          duration: 1,
        },
      }),
      stdin: { tool_info: { response: "done" } },
      answer: "",
      expected: (r) => r.action,
      want: "continue",
    },
  },
  kiro: {
    SessionStart: {
      event: createEvent("SessionStart", { ...s, source: "startup" }),
      stdin: { session_id: "s1" },
      answer: "on branch main",
      expected: (r) => [r.action, r.additionalContext],
      want: ["continue", "on branch main"],
    },
    UserPromptSubmit: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "my token is abc" }),
      stdin: { prompt: "my token is abc" },
      answer: "remove the token",
      exit: 2,
      expected: blocked,
      want: ["block", "remove the token"],
    },
    PreToolUse: {
      event: bash("rm -rf /"),
      stdin: { tool_name: "execute_bash", tool_input: { command: "rm -rf /" } },
      answer: "dangerous command",
      exit: 2,
      expected: blocked,
      want: ["block", "dangerous command"],
    },
    PostToolUse: {
      event: post("Write", { file_path: "/r/a.ts", content: "x" }, "ok"),
      stdin: { tool_name: "fs_write", tool_response: { output: "ok" } },
      answer: "too late",
      exit: 2,
      expected: (r) => [r.action, output(r)],
      want: ["continue", "ok"],
    },
    Stop: {
      event: createEvent("Stop", { ...s, stopHookActive: false }),
      stdin: { hook_event_name: "Stop" },
      answer: "cannot keep going",
      exit: 2,
      expected: (r) => r.action,
      want: "continue",
    },
  },
  codex: {
    SessionStart: {
      event: createEvent("SessionStart", { ...s, source: "resume" }),
      stdin: { source: "resume", session_id: "s1", transcript_path: null },
      answer: "on branch main",
      expected: (r) => [r.action, r.additionalContext],
      want: ["continue", "on branch main"],
    },
    PreToolUse: {
      event: bash("rm -rf /"),
      stdin: { tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      answer:
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"dangerous"}}',
      expected: blocked,
      want: ["block", "dangerous"],
    },
    PermissionRequest: {
      event: createEvent("PermissionRequest", { ...s, tool: "Bash", args: { command: "make" } }),
      stdin: { tool_name: "Bash", tool_input: { command: "make" } },
      answer:
        '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on CI"}}}',
      expected: blocked,
      want: ["block", "not on CI"],
    },
    PostToolUse: {
      event: post("Bash", { command: "ls" }, "a\nb"),
      stdin: {
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_response: { stdout: "a\nb" },
      },
      answer:
        '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"two files"}}',
      expected: (r) => [r.action, r.additionalContext],
      want: ["continue", "two files"],
    },
    UserPromptSubmit: {
      event: createEvent("UserPromptSubmit", { ...s, prompt: "my token is abc" }),
      stdin: { prompt: "my token is abc" },
      answer: '{"decision":"block","reason":"remove the token"}',
      expected: blocked,
      want: ["block", "remove the token"],
    },
    Stop: {
      event: createEvent("Stop", { ...s, stopHookActive: false }),
      stdin: { stop_hook_active: false },
      answer: '{"decision":"block","reason":"run the tests first"}',
      expected: blocked,
      want: ["block", "run the tests first"],
    },
    SubagentStop: {
      event: createEvent("SubagentStop", {
        ...s,
        subagentId: "a1",
        subagentType: "explorer",
        success: true,
      }),
      stdin: { agent_id: "a1", agent_type: "explorer" },
      answer: '{"systemMessage":"subagent done"}',
      expected: (r) => r.systemMessages,
      want: ["subagent done"],
    },
    PreCompact: {
      event: createEvent("PreCompact", { ...s, trigger: "auto" }),
      stdin: { trigger: "auto" },
      answer: '{"systemMessage":"compacting"}',
      expected: (r) => [r.action, r.systemMessages],
      want: ["continue", ["compacting"]],
    },
    PostCompact: {
      event: createEvent("PostCompact", {
        ...s,
        trigger: "manual",
        messagesBefore: 40,
        messagesAfter: 3,
        tokensBefore: 9000,
        tokensAfter: 800,
      }),
      stdin: { trigger: "manual" },
      answer: "{}",
      expected: (r) => r.action,
      want: "continue",
    },
  },
};

interface Row {
  events: string[];
  status: string;
}

/** The event rows of a doc's Events table: its first column's names and its last column. */
function eventRows(format: HookFormatName): Row[] {
  const text = readFileSync(join(DOCS, `${format}.md`), "utf8");
  const section = text.slice(
    text.indexOf("## Events"),
    text.indexOf("\n## ", text.indexOf("## Events") + 1),
  );
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line.split("|").map((c) => c.trim());
      return {
        events: [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
        status: cells[cells.length - 2]!,
      };
    });
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-compat-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Write a file holding one hook for `name`, in the format's shape, whose script answers `answer`. */
function fileFor(format: HookFormatName, name: string, c: Case, dir: string): string {
  const stdinFile = join(dir, "stdin.json");
  const scriptFile = join(dir, "hook.sh");
  const to = c.exit !== undefined ? " >&2" : "";
  writeFileSync(
    scriptFile,
    `#!/bin/sh\ncat > '${stdinFile}'\ncat <<'EOF'${to}\n${c.answer}\nEOF\nexit ${c.exit ?? 0}\n`,
  );
  const command = `sh '${scriptFile}'`;
  const doc = {
    cursor: { version: 1, hooks: { [name]: [{ command }] } },
    gemini: { hooks: { [name]: [{ hooks: [{ type: "command", command }] }] } },
    copilot: { version: 1, hooks: { [name]: [{ type: "command", bash: command }] } },
    codex: { hooks: { [name]: [{ hooks: [{ type: "command", command, timeout: 30 }] }] } },
    windsurf: { hooks: { [name]: [{ command, show_output: true }] } },
    kiro: {
      version: "v1",
      hooks: [{ name: "case", trigger: name, action: { type: "command", command }, timeout: 30 }],
    },
  }[format];
  const file = join(
    dir,
    {
      cursor: ".cursor/hooks.json",
      gemini: ".gemini/settings.json",
      copilot: ".github/hooks/policy.json",
      codex: ".codex/hooks.json",
      windsurf: ".windsurf/hooks.json",
      kiro: ".kiro/hooks/policy.json",
    }[format],
  );
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe.each(Object.keys(HOOK_FORMATS) as HookFormatName[])("%s compatibility table", (format) => {
  const rows = eventRows(format);
  const runs = rows.filter((r) => r.status === "supported" || r.status === "partial");

  it("has a case for every supported row, a row for every case, and loads no other event", () => {
    expect(rows.length).toBeGreaterThan(0);
    const documented = runs.flatMap((r) => r.events).sort();
    expect(documented).toEqual(Object.keys(CASES[format]).sort());
    expect(Object.keys(HOOK_FORMATS[format].events).sort()).toEqual(documented);
    for (const row of rows.filter((r) => r.status === "not supported")) {
      for (const name of row.events) expect(HOOK_FORMATS[format].events).not.toHaveProperty(name);
    }
    for (const row of rows) expect(["supported", "partial", "not supported"]).toContain(row.status);
  });

  it.each(Object.keys(CASES[format]))("%s: the agent's stdin in, its answer read", async (name) => {
    const c = CASES[format][name]!;
    const dir = join(root, format, name);
    mkdirSync(dir, { recursive: true });
    const file = fileFor(format, name, c, dir);
    const settings = await loadHookSettings({
      cwd: dir,
      home: dir,
      files: [file],
      defaults: false,
    });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => [h.event, h.origin?.event])).toEqual([
      [c.event.eventType, name],
    ]);
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    applyHookSettings(engine, settings, { projectDir: dir });
    const result = await engine.fire(c.event as never);
    expect(c.expected(result)).toEqual(c.want);
    const stdin = JSON.parse(readFileSync(join(dir, "stdin.json"), "utf8"));
    // Copilot's stdin does not name the event; the others do, in their own words.
    const named =
      format === "copilot"
        ? {}
        : format === "windsurf"
          ? { agent_action_name: name }
          : { hook_event_name: name };
    expect(stdin).toMatchObject({ ...named, ...c.stdin });
  });
});
