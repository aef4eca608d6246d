import {
  claudeCodeEvents,
  type HookEvent,
  type HookResult,
  safeCreateEvent,
  type ValidationResult,
} from "@a3s-lab/hooks-core";
import { specOf } from "@a3s-lab/hooks-core/internal";
import type { HookEvent as SdkHookEvent, SyncHookJSONOutput } from "@anthropic-ai/claude-agent-sdk";

/**
 * SDK hook events that have a ready definition of the same name in `claudeCodeEvents` of
 * `@a3s-lab/hooks-core`. The bridge maps one once the host has defined it
 * (`defineEvent(claudeCodeEvents.CwdChanged)`), before calling `toAgentSdkHooks`; until then
 * it registers no callback for it and the SDK does what it does without hooks.
 */
export const readyEvents = Object.freeze([
  "PostToolBatch",
  "UserPromptExpansion",
  "StopFailure",
  "PreModelSwitch",
  "PostModelSwitch",
  "Setup",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "DirectoryAdded",
  "MessageDisplay",
] as const satisfies readonly SdkHookEvent[]);

/** An SDK hook event mapped to the ready A3S definition of the same name, once defined. */
export type ReadySdkEvent = (typeof readyEvents)[number];

const READY: ReadonlySet<string> = new Set(readyEvents);

/** True when `name` is one of {@link readyEvents}. */
export function isReadyEvent(name: unknown): name is ReadySdkEvent {
  return typeof name === "string" && READY.has(name);
}

/** True when `name` is one of {@link readyEvents} and the host has defined it. */
export function isDefinedReadyEvent(name: unknown): name is ReadySdkEvent {
  return isReadyEvent(name) && specOf(name) !== undefined;
}

type Fields = Record<string, unknown>;
const BASE_FIELDS = new Set([
  "hook_event_name",
  "session_id",
  "transcript_path",
  "cwd",
  "permission_mode",
  "prompt_id",
  "agent_id",
  "agent_type",
]);

/** Top-level snake_case keys in camelCase; the values (tool input, a form's content) stay as sent. */
function camelKeys(fields: Fields, skip: ReadonlySet<string> = new Set()): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (skip.has(key) || value === undefined) continue;
    out[key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = value;
  }
  return out;
}

/**
 * The A3S event for an SDK input of a ready event: its fields in camelCase (`old_cwd` →
 * `oldCwd`), FileChanged's `fileName` (the base name its matcher reads) from `file_path`, and
 * PostToolBatch's `tool_calls` entries in camelCase. Fields the definition does not know are
 * left out; the definition's schema checks the rest, and an error names the field.
 */
export function fromReadyInput(
  name: ReadySdkEvent,
  input: Fields,
  metadata: Fields,
): ValidationResult<HookEvent> {
  const known = new Set(Object.keys(claudeCodeEvents[name].schema.shape));
  const fields = camelKeys(input, BASE_FIELDS);
  if (name === "FileChanged" && typeof input.file_path === "string") {
    fields.fileName = input.file_path.split(/[\\/]/).pop() ?? input.file_path;
  }
  if (name === "PostToolBatch" && Array.isArray(input.tool_calls)) {
    fields.toolCalls = input.tool_calls.map((call: unknown) =>
      call !== null && typeof call === "object" && !Array.isArray(call)
        ? camelKeys(call as Fields)
        : call,
    );
  }
  const kept: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (known.has(key)) kept[key] = value;
  return safeCreateEvent(name as never, {
    ...kept,
    sessionId: input.session_id,
    metadata,
  }) as ValidationResult<HookEvent>;
}

/**
 * The SDK's JSON answer for a ready event: a block is `decision: "block"` with the reason,
 * except where the SDK has the event's own no (Elicitation and ElicitationResult decline,
 * PreModelSwitch's `permissionDecision: "deny"`); the fields hooks answer travel in
 * `hookSpecificOutput` where the SDK has them (`worktreePath`, `watchPaths`,
 * `displayContent`, an elicitation's `action` and `content`, `additionalContext`).
 */
export function toReadyOutput(result: HookResult, sdkEvent: ReadySdkEvent): SyncHookJSONOutput {
  const out: SyncHookJSONOutput = {};
  if (result.systemMessages.length > 0) out.systemMessage = result.systemMessages.join("\n");
  if (result.suppressOutput) out.suppressOutput = true;
  const reason = result.reason ?? "blocked by a hook";
  const event = (result.event ?? {}) as Fields;
  const context = result.additionalContext;
  if (result.action === "block") {
    switch (sdkEvent) {
      case "Elicitation":
      case "ElicitationResult":
        out.hookSpecificOutput = { hookEventName: sdkEvent, action: "decline" };
        break;
      case "PreModelSwitch":
        out.hookSpecificOutput = {
          hookEventName: "PreModelSwitch",
          permissionDecision: "deny",
          permissionDecisionReason: reason,
        };
        break;
      default:
        out.decision = "block";
        out.reason = reason;
    }
    return out;
  }
  switch (sdkEvent) {
    case "Elicitation":
    case "ElicitationResult": {
      if (result.modified && (event.action !== undefined || event.content !== undefined)) {
        out.hookSpecificOutput = {
          hookEventName: sdkEvent,
          ...(event.action !== undefined ? { action: event.action as "accept" } : {}),
          ...(event.content !== undefined ? { content: event.content as Fields } : {}),
        };
      }
      break;
    }
    case "WorktreeCreate":
      if (typeof event.worktreePath === "string") {
        out.hookSpecificOutput = {
          hookEventName: "WorktreeCreate",
          worktreePath: event.worktreePath,
        };
      }
      break;
    case "CwdChanged":
    case "FileChanged":
      if (Array.isArray(event.watchPaths)) {
        out.hookSpecificOutput = {
          hookEventName: sdkEvent,
          watchPaths: event.watchPaths as string[],
        };
      }
      break;
    case "MessageDisplay":
      if (result.modified && typeof event.displayContent === "string") {
        out.hookSpecificOutput = {
          hookEventName: "MessageDisplay",
          displayContent: event.displayContent,
        };
      }
      break;
    case "PreModelSwitch":
      if (result.permission === "allow" || result.permission === "ask") {
        out.hookSpecificOutput = {
          hookEventName: "PreModelSwitch",
          permissionDecision: result.permission,
        };
      }
      break;
    case "PostToolBatch":
    case "UserPromptExpansion":
    case "Setup":
    case "PostModelSwitch":
      if (context !== undefined) {
        out.hookSpecificOutput = { hookEventName: sdkEvent, additionalContext: context } as never;
      }
      break;
  }
  return out;
}
