import { claudeCodeEvents, createEvent, defineEvent } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { templateVariables } from "./command/template-variables.js";
import { toHookInput } from "./hook-input.js";
import { hookInputSchema } from "./hook-input-schema.js";

const at = { cwd: "/repo" };

describe("toHookInput", () => {
  it("gives PostToolUse Claude Code's tool_response and the hooks-system design's tool_result", () => {
    const result = { success: true, output: "done", duration: 4 };
    const input = toHookInput(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool: "Write",
        args: { file_path: "a" },
        result,
      }),
      at,
    );
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      event: "post_tool_use",
      tool_name: "Write",
      tool_input: { file_path: "a" },
      tool_response: result,
      tool_result: result,
      result,
    });
    expect(hookInputSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    [
      createEvent("Stop", { sessionId: "s", stopHookActive: true }),
      { hook_event_name: "Stop", event: "stop", stop_hook_active: true },
    ],
    [
      createEvent("SubagentStart", {
        sessionId: "s",
        subagentId: "a1",
        subagentType: "explorer",
        description: "look",
      }),
      {
        event: "subagent_start",
        agent_id: "a1",
        agent_type: "explorer",
        subagent_id: "a1",
        description: "look",
      },
    ],
    [
      createEvent("Notification", { sessionId: "s", message: "hi", notificationType: "idle" }),
      { message: "hi", notification_type: "idle" },
    ],
    [
      createEvent("PostToolUseFailure", {
        sessionId: "s",
        tool: "Bash",
        args: {},
        error: "exit 1",
      }),
      {
        hook_event_name: "PostToolUseFailure",
        event: "post_tool_use_failure",
        error: "exit 1",
        tool_name: "Bash",
      },
    ],
    [
      createEvent("PreCompact", { sessionId: "s", trigger: "auto", customInstructions: "keep" }),
      { trigger: "auto", custom_instructions: "keep" },
    ],
    [
      createEvent("UserPromptSubmit", {
        sessionId: "s",
        prompt: "hi",
        metadata: { transcriptPath: "/t.jsonl", permissionMode: "default" },
      }),
      { prompt: "hi", transcript_path: "/t.jsonl", permission_mode: "default" },
    ],
    [
      createEvent("SkillLoad", { sessionId: "s", skillName: "fmt" }),
      { event: "skill_load", skill_name: "fmt", skillName: "fmt" },
    ],
    [
      createEvent("PermissionDenied", {
        sessionId: "s",
        tool: "Bash",
        args: { command: "rm -rf /" },
        toolUseId: "t1",
        decidedBy: "policy",
        reason: "no",
      }),
      { tool_name: "Bash", tool_use_id: "t1", decided_by: "policy", reason: "no" },
    ],
  ])("maps %o", (event, expected) => {
    const input = toHookInput(event, at);
    expect(input).toMatchObject({ session_id: "s", cwd: "/repo", ...expected });
    expect(hookInputSchema.safeParse(input).success).toBe(true);
    // Every field toHookInput adds to the event's own is in the published schema.
    const added = Object.keys(input).filter((key) => !Object.hasOwn(event, key));
    const unlisted = added.filter((key) => !Object.hasOwn(hookInputSchema.shape, key));
    expect(unlisted).toEqual([]);
  });
});

describe("templateVariables", () => {
  it("fill the CLI-agent hooks specification's variables, empty where they do not apply", () => {
    const vars = templateVariables(
      createEvent("PostToolUse", {
        sessionId: "s",
        timestamp: Date.UTC(2024, 0, 1),
        tool: "bash_execute",
        args: { command: "ls" },
        result: { success: false, output: "boom", duration: 1 },
      }),
      "/repo",
    );
    expect(vars).toEqual({
      tool_name: "bash_execute",
      tool_args: { command: "ls" },
      result: "boom",
      error: "boom",
      message: "",
      timestamp: "2024-01-01T00:00:00.000Z",
      session_id: "s",
      user_input: "",
      hook_event_name: "PostToolUse",
      event: "post_tool_use",
      cwd: "/repo",
    });
    const prompt = templateVariables(
      createEvent("Stop", {
        sessionId: "s",
        stopHookActive: false,
        metadata: { userInput: "go" },
        timestamp: 1e20,
      }),
      "/",
    );
    expect([prompt.user_input, prompt.timestamp]).toEqual(["go", ""]);
  });
});

describe("toHookInput for defined events", () => {
  defineEvent(claudeCodeEvents.PostToolBatch);
  defineEvent(claudeCodeEvents.TeammateIdle);
  defineEvent("ReleaseCut", {
    schema: z.object({
      releaseTag: z.string(),
      notes: z.optional(z.record(z.string(), z.string())),
    }),
  });
  // The defined names are not in this package's HookEventMap: build them untyped.
  const make = (name: string, fields: object) => createEvent(name as "Stop", fields as never);

  it("sends a defined event's own fields in snake_case, as Claude Code does", () => {
    const input = toHookInput(
      make("TeammateIdle", { sessionId: "s", teammateName: "ana", teamName: "core" }),
      at,
    );
    expect(input).toMatchObject({
      hook_event_name: "TeammateIdle",
      event: "teammate_idle",
      session_id: "s",
      teammate_name: "ana",
      team_name: "core",
      teammateName: "ana",
    });
  });

  it("converts the keys the schema declares all the way down, never the data under them", () => {
    const input = toHookInput(
      make("PostToolBatch", {
        sessionId: "s",
        toolCalls: [
          { toolName: "Edit", toolUseId: "t1", toolInput: { filePath: "a.ts", oldString: "x" } },
        ],
      }),
      at,
    );
    expect(input.tool_calls).toEqual([
      { tool_name: "Edit", tool_use_id: "t1", tool_input: { filePath: "a.ts", oldString: "x" } },
    ]);
    const release = toHookInput(
      make("ReleaseCut", { sessionId: "s", releaseTag: "v1", notes: { breakingChange: "none" } }),
      at,
    );
    expect(release).toMatchObject({ release_tag: "v1", notes: { breakingChange: "none" } });
  });
});

// Claude Code's hooks reference shows PostToolUse's tool_response in the tool's own shape (for
// Write, `filePath` and `success`); scripts read `.tool_response.filePath` or `.stdout`.
describe("tool_response in Claude Code's shape for the built-in tools", () => {
  const post = (tool: string, args: Record<string, unknown>, output: string) =>
    toHookInput(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool,
        args,
        result: { success: true, output, duration: 3, exitCode: 0 },
      }),
      { cwd: "/p" },
    ).tool_response as Record<string, unknown>;

  it.each([
    ["Bash", { command: "echo hi" }, "hi\n", { stdout: "hi\n", stderr: "", interrupted: false }],
    [
      "Write",
      { file_path: "/p/a.md", content: "x" },
      "wrote 1 bytes",
      { filePath: "/p/a.md", content: "x" },
    ],
    [
      "Edit",
      { file_path: "/p/a.md", old_string: "a", new_string: "b" },
      "replaced",
      { filePath: "/p/a.md", oldString: "a", newString: "b", replaceAll: false },
    ],
    [
      "Read",
      { file_path: "/p/a.md" },
      "hello",
      { type: "text", file: { filePath: "/p/a.md", content: "hello" } },
    ],
    [
      "Glob",
      { pattern: "*.md" },
      '{"files":["a.md","b.md"],"truncated":false}',
      { filenames: ["a.md", "b.md"], numFiles: 2 },
    ],
  ])("%s", (tool, args, output, shape) => {
    const response = post(tool, args, output);
    expect(response).toMatchObject(shape);
    // The A3S result's own fields stay beside it for the readers of those.
    expect(response).toMatchObject({ success: true, output, duration: 3 });
  });
});
