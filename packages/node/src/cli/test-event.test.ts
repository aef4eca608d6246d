import { describe, expect, it } from "vitest";
import { CliError } from "./cli-error.js";
import { buildTestEvent, eventFieldsFromInput, eventNameArgument } from "./test-event.js";

describe("the event a3s-hooks test fires", () => {
  it("has valid defaults for every event", async () => {
    const { hookEventNames } = await import("@a3s-lab/hooks-core");
    for (const name of hookEventNames) {
      expect(buildTestEvent(name, {}).eventType).toBe(name);
    }
  });

  it("reads a captured Claude Code payload", () => {
    expect(
      eventFieldsFromInput({
        session_id: "abc",
        hook_event_name: "PostToolUse",
        transcript_path: "/t.jsonl",
        cwd: "/x",
        tool_name: "Write",
        tool_input: { file_path: "a.ts" },
        tool_response: { filePath: "a.ts", success: true },
        tool_use_id: "toolu_1",
      }),
    ).toEqual({
      sessionId: "abc",
      tool: "Write",
      args: { file_path: "a.ts" },
      toolUseId: "toolu_1",
      result: { success: true, output: '{"filePath":"a.ts","success":true}', duration: 0 },
      metadata: { transcriptPath: "/t.jsonl" },
    });
    const event = buildTestEvent("Stop", { input: { stop_hook_active: true, session_id: "s" } });
    expect(event).toMatchObject({ eventType: "Stop", stopHookActive: true, sessionId: "s" });
  });

  it("lets --tool and --args win over the input", () => {
    const event = buildTestEvent("PreToolUse", {
      input: { tool_name: "Read", tool_input: { path: "x" } },
      tool: "Bash",
      args: { command: "ls" },
    });
    expect(event).toMatchObject({ tool: "Bash", args: { command: "ls" } });
  });

  it("names the bad field of an invalid event, and unknown event names", () => {
    expect(() => buildTestEvent("Stop", { input: { stopHookActive: "yes" } })).toThrow(
      /the Stop event is invalid: Stop\.stopHookActive: expected boolean/,
    );
    expect(() => buildTestEvent("PreToolUse", { tool: "" })).toThrow(CliError);
    expect(eventNameArgument("tool_error")).toBe("PostToolUseFailure");
    expect(() => eventNameArgument("Nope")).toThrow(/^unknown event name "Nope"$/);
    expect(() => eventNameArgument("post-tool-use-failur")).toThrow(
      /^unknown event name "post-tool-use-failur" \(did you mean "PostToolUseFailure"\?\)$/,
    );
  });
});
