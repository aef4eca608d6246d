import { HookError, validateEvent } from "@a3s-lab/hooks-core";
import type { HookInput } from "@anthropic-ai/claude-agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anySdkInput, preToolUse, sdkInputs } from "../test/fixtures/sdk-inputs.js";
import { fromSdkInput, toolResponseText } from "./from-sdk-input.js";
import { bridgedEvents } from "./sdk-events.js";

describe("fromSdkInput", () => {
  it("maps every bridged SDK input to a valid A3S event of the mapped type, keeping the session", () => {
    fc.assert(
      fc.property(anySdkInput, fc.option(fc.uuid(), { nil: undefined }), (input, toolUseId) => {
        const mapped = fromSdkInput(input, toolUseId);
        expect(mapped?.success).toBe(true);
        if (!mapped?.success) return;
        const event = mapped.data;
        expect(validateEvent(event).success).toBe(true);
        expect(event.eventType).toBe(
          bridgedEvents[input.hook_event_name as keyof typeof bridgedEvents],
        );
        expect(event.sessionId).toBe(input.session_id);
        expect(event.metadata).toMatchObject({ agent: "claude-agent-sdk", cwd: input.cwd });
      }),
    );
  });

  it("keeps a tool call's name, input and id as they are", () => {
    const toolInputs = fc.oneof(
      sdkInputs.PreToolUse,
      sdkInputs.PostToolUse,
      sdkInputs.PostToolUseFailure,
      sdkInputs.PermissionRequest,
      sdkInputs.PermissionDenied,
    );
    fc.assert(
      fc.property(toolInputs, (input) => {
        const mapped = fromSdkInput(input, "from-callback");
        if (!mapped?.success) throw mapped?.error;
        const event = mapped.data as { tool: string; args: unknown; toolUseId?: string };
        expect(event.tool).toBe(input.tool_name);
        expect(event.args).toBe(input.tool_input);
        const own = (input as { tool_use_id?: string }).tool_use_id;
        expect(event.toolUseId).toBe(own ?? "from-callback");
      }),
    );
  });

  it("carries each event's own fields under their A3S names", () => {
    fc.assert(
      fc.property(sdkInputs.PostToolUse, (input) => {
        const event = fromSdkInput(input);
        if (!event?.success || event.data.eventType !== "PostToolUse") throw new Error("unmapped");
        expect(event.data.result.output).toBe(toolResponseText(input.tool_response));
        expect(event.data.result.duration).toBe(input.duration_ms ?? 0);
      }),
    );
    fc.assert(
      fc.property(sdkInputs.UserPromptSubmit, (input) => {
        const event = fromSdkInput(input);
        expect(event?.success && event.data).toMatchObject({ prompt: input.prompt });
      }),
    );
    fc.assert(
      fc.property(sdkInputs.Stop, (input) => {
        const event = fromSdkInput(input);
        expect(event?.success && event.data).toMatchObject({
          stopHookActive: input.stop_hook_active,
          ...(input.last_assistant_message !== undefined
            ? { responseText: input.last_assistant_message }
            : {}),
        });
      }),
    );
    fc.assert(
      fc.property(sdkInputs.PreCompact, (input) => {
        const event = fromSdkInput(input);
        if (!event?.success || event.data.eventType !== "PreCompact") throw new Error("unmapped");
        expect(event.data.trigger).toBe(input.trigger);
        expect(event.data.customInstructions).toBe(input.custom_instructions ?? undefined);
      }),
    );
    fc.assert(
      fc.property(sdkInputs.SubagentStart, (input) => {
        const event = fromSdkInput(input);
        expect(event?.success && event.data).toMatchObject({
          subagentId: input.agent_id,
          subagentType: input.agent_type,
        });
      }),
    );
  });

  it("answers undefined for an SDK event the A3S catalogue has no equivalent of", () => {
    const input = {
      session_id: "s",
      transcript_path: "t",
      cwd: "/",
      hook_event_name: "CwdChanged",
      old_cwd: "/a",
      new_cwd: "/b",
    } as HookInput;
    expect(fromSdkInput(input)).toBeUndefined();
  });

  it.each([
    ["tool_input", { tool_input: ["rm", "-rf"] }],
    ["tool_input", { tool_input: "rm -rf /" }],
    ["tool_input", { tool_input: null }],
    ["tool_name", { tool_name: "" }],
    ["tool_name", { tool_name: 42 }],
    ["session_id", { session_id: undefined }],
  ])("names the SDK field %s when the input does not fit", (field, patch) => {
    const input = { ...preToolUse("Bash", { command: "ls" }), ...patch } as unknown as HookInput;
    const mapped = fromSdkInput(input);
    expect(mapped?.success).toBe(false);
    if (mapped?.success !== false) return;
    expect(HookError.is(mapped.error, "INVALID_EVENT")).toBe(true);
    expect(mapped.error.message).toContain(`input.${field}`);
  });

  it("answers an error, not an exception, for input whose fields throw when read", () => {
    const input = preToolUse("Bash", {});
    Object.defineProperty(input, "tool_input", {
      get() {
        throw new Error("boom");
      },
    });
    const mapped = fromSdkInput(input);
    expect(mapped?.success).toBe(false);
    expect(fromSdkInput(null as unknown as HookInput)?.success).toBe(false);
  });
});

describe("toolResponseText", () => {
  it("keeps text and writes anything else as JSON", () => {
    expect(toolResponseText("done")).toBe("done");
    expect(toolResponseText({ stdout: "a", stderr: "" })).toBe('{"stdout":"a","stderr":""}');
    expect(toolResponseText(undefined)).toBe("");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(toolResponseText(cycle)).toBe("[object Object]");
  });
});

describe("fromSdkInput keeps what the event has no field for", () => {
  it("keeps Claude Code's own tool_response and newer fields under metadata.claudeCodeInput", () => {
    const input = {
      hook_event_name: "PostToolUse",
      session_id: "s",
      transcript_path: "/t.jsonl",
      cwd: "/p",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      tool_response: { stdout: "hi\n", stderr: "", interrupted: false },
      tool_use_id: "toolu_1",
      effort: "high",
      duration_ms: 5,
    } as unknown as Parameters<typeof fromSdkInput>[0];
    const mapped = fromSdkInput(input);
    expect(mapped?.success).toBe(true);
    if (!mapped?.success) return;
    expect(mapped.data.metadata.claudeCodeInput).toEqual({
      tool_response: { stdout: "hi\n", stderr: "", interrupted: false },
      effort: "high",
      duration_ms: 5,
    });
  });
});
