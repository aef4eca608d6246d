import {
  HookError,
  type HookEvent,
  type HookEventName,
  safeCreateEvent,
  type ValidationResult,
} from "@a3s-lab/hooks-core";
import { CLAUDE_CODE_INPUT_KEY, claudeCodeExtraInput } from "@a3s-lab/hooks-core/internal";
import type { HookInput } from "@anthropic-ai/claude-agent-sdk";
import { fromReadyInput, isDefinedReadyEvent } from "./ready-events.js";
import { bridgedEvents, isBridgedEvent } from "./sdk-events.js";

type Fields = Record<string, unknown>;

function fail(event: string, field: string, message: string): { success: false; error: HookError } {
  return {
    success: false,
    error: new HookError("INVALID_EVENT", `${event} input.${field}: ${message}`, {
      path: ["input", field],
    }),
  };
}

const notAnObject = (): { success: false; error: HookError } => ({
  success: false,
  error: new HookError("INVALID_EVENT", "hook input: expected an object", { path: ["input"] }),
});

function isPlainObject(value: unknown): value is Fields {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A tool's response as the text our PostToolUse carries: text as is, anything else as JSON. */
export function toolResponseText(response: unknown): string {
  if (typeof response === "string") return response;
  if (response === undefined) return "";
  try {
    return JSON.stringify(response) ?? "";
  } catch {
    return String(response);
  }
}

/** Keep only the fields that are present, so optional event fields stay absent. */
function defined(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Where the SDK's input came from, for hooks that care: the working directory, the
 * transcript, the permission mode, the subagent. The A3S fields carry the rest.
 */
/** Input fields an event carries under the same name and meaning: not kept twice. */
const SAME_NAME = new Set([
  "prompt",
  "source",
  "reason",
  "stop_hook_active",
  "trigger",
  "custom_instructions",
  "message",
  "notification_type",
  "error",
  "agent_id",
  "agent_type",
]);

function metadataOf(input: Fields): Fields {
  return defined({
    // Every other field, as Claude Code sent it, for command hooks' stdin.
    [CLAUDE_CODE_INPUT_KEY]: claudeCodeExtraInput(input, SAME_NAME),
    agent: "claude-agent-sdk",
    cwd: typeof input.cwd === "string" ? input.cwd : undefined,
    transcriptPath: typeof input.transcript_path === "string" ? input.transcript_path : undefined,
    permissionMode: typeof input.permission_mode === "string" ? input.permission_mode : undefined,
    promptId: typeof input.prompt_id === "string" ? input.prompt_id : undefined,
    agentId: typeof input.agent_id === "string" ? input.agent_id : undefined,
    agentType: typeof input.agent_type === "string" ? input.agent_type : undefined,
  });
}

/** The A3S fields of each bridged event, from the SDK's input (already checked to be an object). */
function fieldsOf(name: HookEventName, input: Fields, toolUseId: string | undefined): Fields {
  const tool = () =>
    defined({
      tool: input.tool_name,
      args: input.tool_input,
      toolUseId: typeof input.tool_use_id === "string" ? input.tool_use_id : toolUseId,
    });
  switch (name) {
    case "PreToolUse":
    case "PermissionRequest":
      return tool();
    case "PostToolUse":
      return {
        ...tool(),
        result: {
          success: true,
          output: toolResponseText(input.tool_response),
          duration: typeof input.duration_ms === "number" ? Math.max(0, input.duration_ms) : 0,
        },
      };
    case "PostToolUseFailure":
      return defined({
        ...tool(),
        error: input.error,
        duration:
          typeof input.duration_ms === "number" ? Math.max(0, input.duration_ms) : undefined,
      });
    case "PermissionDenied":
      // The SDK fires this when its own permission check (auto mode's classifier) said no.
      return defined({ ...tool(), decidedBy: "policy", reason: input.reason });
    case "UserPromptSubmit":
      return { prompt: input.prompt };
    case "SessionStart":
      return defined({
        source: input.source,
        workingDirectory: input.cwd,
        model: typeof input.model === "string" ? { name: input.model } : undefined,
      });
    case "SessionEnd":
      return { reason: input.reason };
    case "Stop":
      return defined({
        stopHookActive: input.stop_hook_active,
        responseText: input.last_assistant_message,
      });
    case "SubagentStart":
      // The SDK gives no description of the subagent's task.
      return { subagentId: input.agent_id, subagentType: input.agent_type, description: "" };
    case "SubagentStop":
      // The SDK reports no failure of a subagent here: a subagent that stops has succeeded.
      return defined({
        subagentId: input.agent_id,
        subagentType: input.agent_type,
        success: true,
        output: input.last_assistant_message,
      });
    case "PreCompact":
      return defined({
        trigger: input.trigger,
        customInstructions: input.custom_instructions ?? undefined,
      });
    case "PostCompact":
      // The SDK reports the summary, not the counts: they read 0.
      return defined({
        trigger: input.trigger,
        summary: input.compact_summary,
        messagesBefore: 0,
        messagesAfter: 0,
        tokensBefore: 0,
        tokensAfter: 0,
      });
    case "Notification":
      return defined({
        message: input.message,
        notificationType: input.notification_type,
        title: input.title,
      });
    default:
      return {};
  }
}

const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
]);

/**
 * The A3S event for a Claude Agent SDK hook input: `tool_name` → `tool`, `tool_input` → `args`,
 * `session_id` → `sessionId`, and so on (see the README's table); Claude Code's other events map
 * to their ready definitions once the host has defined them. Returns `undefined` for an SDK
 * event with no A3S equivalent (or a ready one not defined), and a `HookError` (`INVALID_EVENT`, naming the SDK field)
 * for input that does not fit the event's schema. Never throws.
 *
 * @example
 * ```ts
 * const mapped = fromSdkInput(input, toolUseID);
 * if (mapped?.success) await engine.fire(mapped.data);
 * ```
 */
export function fromSdkInput(
  input: HookInput,
  toolUseId?: string,
): ValidationResult<HookEvent> | undefined {
  try {
    if (!isPlainObject(input)) return notAnObject();
    const sdkName = input.hook_event_name;
    const fields = input as unknown as Fields;
    if (isDefinedReadyEvent(sdkName)) {
      if (typeof fields.session_id !== "string") {
        return fail(sdkName, "session_id", "expected a string");
      }
      return fromReadyInput(sdkName, fields, metadataOf(fields));
    }
    if (!isBridgedEvent(sdkName)) return undefined;
    const name = bridgedEvents[sdkName];
    if (typeof fields.session_id !== "string") {
      return fail(sdkName, "session_id", "expected a string");
    }
    if (TOOL_EVENTS.has(name)) {
      if (typeof fields.tool_name !== "string" || fields.tool_name === "") {
        return fail(sdkName, "tool_name", "expected a non-empty string");
      }
      if (!isPlainObject(fields.tool_input)) {
        return fail(sdkName, "tool_input", "expected a JSON object");
      }
    }
    return safeCreateEvent(name, {
      ...fieldsOf(name, fields, toolUseId),
      sessionId: fields.session_id,
      metadata: metadataOf(fields),
    });
  } catch (error) {
    // A getter that throws, a Proxy: whatever the input holds, this answers with an error.
    return {
      success: false,
      error: new HookError("INVALID_EVENT", `hook input could not be read: ${String(error)}`, {
        cause: error,
        path: ["input"],
      }),
    };
  }
}
