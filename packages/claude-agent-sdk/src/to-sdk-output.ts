import type {
  HookResult,
  PermissionRequestEvent,
  PostToolUseEvent,
  PreToolUseEvent,
} from "@a3s-lab/hooks-core";
import type { SyncHookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import type { BridgedSdkEvent } from "./sdk-events.js";

type HookSpecificOutput = NonNullable<SyncHookJSONOutput["hookSpecificOutput"]>;

/** The reason a rewritten prompt stops the turn: the SDK has no way to send it instead. */
export const PROMPT_REWRITE_REASON =
  "a hook rewrote the prompt, and a Claude Agent SDK session cannot send a rewritten prompt; the original was not sent";

/**
 * The SDK's JSON answer for the merged result of the A3S hooks that ran for `sdkEvent`:
 *
 * - a block becomes the event's own way of saying no: `permissionDecision: "deny"` (PreToolUse),
 *   `decision.behavior: "deny"` (PermissionRequest), `decision: "block"` (UserPromptSubmit,
 *   Stop, where it means "go on with this reason", PreCompact), or `continue: false` with the
 *   reason as `stopReason` where the SDK has no other (SessionStart, SubagentStart);
 * - modified arguments become `updatedInput` (the whole new input), a rewritten tool output
 *   `updatedToolOutput`;
 * - a permission `allow` or `ask` becomes `permissionDecision` (PreToolUse), an `allow`
 *   `decision.behavior: "allow"` (PermissionRequest; `ask` leaves the SDK's own prompt to decide);
 * - a hook that ended the turn (`stopTurn`) becomes `continue: false` with its `stopReason`,
 *   and nothing else decides; an `ask`'s reason becomes `permissionDecisionReason`;
 * - a PostToolUse or PostToolUseFailure block (`feedback`: the tool already ran) becomes
 *   `decision: "block"` with the reason, which the SDK gives the model;
 * - a PermissionDenied hook's `retry: true` becomes `hookSpecificOutput.retry`;
 * - a PreToolUse hook's `respond` (an answer in place of the tool) becomes
 *   `permissionDecision: "deny"` with the answer as `permissionDecisionReason`: the SDK does not
 *   run the tool and shows that reason to the model, the nearest it has to a tool result a
 *   hook gives;
 * - `additionalContext`, `systemMessage` (every hook's, one per line) and `suppressOutput`
 *   travel where the SDK event has a field for them.
 *
 * A rewritten prompt cannot travel (the SDK has no field for one), so it blocks the prompt
 * with {@link PROMPT_REWRITE_REASON} rather than send what a hook meant to change.
 */
export function toSdkOutput(result: HookResult, sdkEvent: BridgedSdkEvent): SyncHookJSONOutput {
  const out: SyncHookJSONOutput = {};
  if (result.systemMessages.length > 0) out.systemMessage = result.systemMessages.join("\n");
  if (result.suppressOutput) out.suppressOutput = true;
  if (result.stopTurn) {
    // `continue: false` outranks every decision; its reason is for the user, not the model.
    out.continue = false;
    if (result.stopTurn.reason !== undefined) out.stopReason = result.stopTurn.reason;
    return out;
  }
  const blocked = result.action === "block";
  const reason = result.reason ?? "blocked by a hook";
  const context = result.additionalContext;
  const withContext = <T extends HookSpecificOutput>(specific: T): T =>
    context !== undefined ? { ...specific, additionalContext: context } : specific;

  switch (sdkEvent) {
    case "PreToolUse": {
      if (blocked) {
        out.hookSpecificOutput = withContext({
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: result.respond?.output ?? reason,
        });
        break;
      }
      const event = result.event as PreToolUseEvent;
      const specific: HookSpecificOutput = {
        hookEventName: "PreToolUse",
        ...(result.permission === "allow" || result.permission === "ask"
          ? { permissionDecision: result.permission }
          : {}),
        ...(result.permission === "ask" && result.permissionReason !== undefined
          ? { permissionDecisionReason: result.permissionReason }
          : {}),
        ...(result.modified ? { updatedInput: event.args } : {}),
      };
      if (Object.keys(specific).length > 1 || context !== undefined) {
        out.hookSpecificOutput = withContext(specific);
      }
      break;
    }
    case "PermissionRequest": {
      if (blocked) {
        out.hookSpecificOutput = {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: reason },
        };
      } else if (result.permission === "allow") {
        const event = result.event as PermissionRequestEvent;
        out.hookSpecificOutput = {
          hookEventName: "PermissionRequest",
          decision: { behavior: "allow", ...(result.modified ? { updatedInput: event.args } : {}) },
        };
      }
      break;
    }
    case "PostToolUse": {
      // A block after the tool ran: the SDK gives `reason` to the model, as Claude Code does.
      if (result.feedback !== undefined) {
        out.decision = "block";
        out.reason = result.feedback;
      }
      if (result.modified || context !== undefined) {
        const output = (result.event as PostToolUseEvent).result.output;
        out.hookSpecificOutput = withContext({
          hookEventName: "PostToolUse",
          ...(result.modified ? { updatedToolOutput: output } : {}),
        });
      }
      break;
    }
    case "UserPromptSubmit": {
      // `prompt` is the only field a UserPromptSubmit hook may change.
      if (blocked || result.modified) {
        out.decision = "block";
        out.reason = blocked ? reason : PROMPT_REWRITE_REASON;
      } else if (context !== undefined) {
        out.hookSpecificOutput = { hookEventName: "UserPromptSubmit", additionalContext: context };
      }
      break;
    }
    case "Stop":
    case "PreCompact":
      if (blocked) {
        out.decision = "block";
        out.reason = reason;
      } else if (context !== undefined && sdkEvent === "Stop") {
        out.hookSpecificOutput = { hookEventName: "Stop", additionalContext: context };
      }
      break;
    case "SessionStart":
    case "SubagentStart":
      if (blocked) {
        out.continue = false;
        out.stopReason = reason;
      } else if (context !== undefined) {
        out.hookSpecificOutput = { hookEventName: sdkEvent, additionalContext: context };
      }
      break;
    case "PostToolUseFailure":
      if (result.feedback !== undefined) {
        out.decision = "block";
        out.reason = result.feedback;
      }
      if (context !== undefined) {
        out.hookSpecificOutput = { hookEventName: sdkEvent, additionalContext: context };
      }
      break;
    case "SubagentStop":
    case "Notification":
      if (context !== undefined) {
        out.hookSpecificOutput = { hookEventName: sdkEvent, additionalContext: context };
      }
      break;
    case "PermissionDenied":
      // A hook's `retry: true`: the SDK tells the model it may retry; the denial stands.
      if ((result.event as { retry?: unknown }).retry === true) {
        out.hookSpecificOutput = { hookEventName: "PermissionDenied", retry: true };
      }
      break;
    // SessionEnd, PostCompact: nothing but the common fields to say.
  }
  return out;
}
