import type { HookEvent } from "@a3s-lab/hooks-core";
import { snakeCase } from "@a3s-lab/hooks-core/internal";

/** Every `{{variable}}` a command may use, with what it holds. */
export const TEMPLATE_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  tool_name: "the tool's name (tool events)",
  tool_args: "the tool's arguments as JSON; {{tool_args.file_path}} picks one (tool events)",
  result: "the tool's output (PostToolUse), the subagent's output (SubagentStop)",
  error: "the error message (PostToolUseFailure, a failed PostToolUse or SubagentStop)",
  message: "the notification text (Notification)",
  timestamp: "the event's time, ISO 8601",
  session_id: "the session id",
  user_input: "the prompt (UserPromptSubmit, GenerateStart), else metadata.userInput",
  hook_event_name: "the event name, PascalCase",
  event: "the event name, snake_case",
  cwd: "the directory the hook runs in",
});

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * The values of the template variables for one event. Values that do not apply are
 * empty strings, so a template never fails on an event that lacks them.
 */
export function templateVariables(event: HookEvent, cwd: string): Record<string, unknown> {
  const e = event as HookEvent & Record<string, unknown>;
  const result = e.result as { output?: unknown; success?: unknown } | undefined;
  const failed = result?.success === false;
  const metadata = event.metadata as Record<string, unknown> | undefined;
  return {
    tool_name: str(e.tool) ?? "",
    tool_args: e.args ?? {},
    result: str(result?.output) ?? str(e.output) ?? "",
    error: str(e.error) ?? (failed ? (str(result?.output) ?? "") : ""),
    message: str(e.message) ?? "",
    timestamp: isoTime(event.timestamp),
    session_id: event.sessionId,
    user_input: str(e.prompt) ?? str(metadata?.userInput) ?? "",
    hook_event_name: event.eventType,
    event: snakeCase(event.eventType),
    cwd,
  };
}
