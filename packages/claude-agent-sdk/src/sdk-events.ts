import type { HookEventName } from "@a3s-lab/hooks-core";
import type { HookEvent as SdkHookEvent } from "@anthropic-ai/claude-agent-sdk";

/**
 * Each Claude Agent SDK hook event that has an equivalent in the A3S catalogue, and that
 * equivalent. The bridge registers a callback for these, fires the A3S event, and answers in
 * the SDK's JSON.
 */
export const bridgedEvents = Object.freeze({
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  PostToolUseFailure: "PostToolUseFailure",
  PermissionRequest: "PermissionRequest",
  PermissionDenied: "PermissionDenied",
  UserPromptSubmit: "UserPromptSubmit",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  Stop: "Stop",
  SubagentStart: "SubagentStart",
  SubagentStop: "SubagentStop",
  PreCompact: "PreCompact",
  PostCompact: "PostCompact",
  Notification: "Notification",
} as const satisfies Partial<Record<SdkHookEvent, HookEventName>>);

/** An SDK hook event the bridge maps to an A3S event. */
export type BridgedSdkEvent = keyof typeof bridgedEvents;

/** True when the bridge maps this SDK event name. */
export function isBridgedEvent(name: unknown): name is BridgedSdkEvent {
  return typeof name === "string" && Object.hasOwn(bridgedEvents, name);
}
