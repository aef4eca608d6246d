import { HookError } from "./hook-error.js";
import { type HookResponse, hookResponseSchema } from "./hook-response.js";
import { copyJsonData } from "./json-limits.js";
import { type ValidationResult, validate } from "./validation.js";
import type { HookResponseMessage } from "./wire.js";

/**
 * A client's answer in wire form → the engine's {@link HookResponse}. A message with `error`
 * set is a handler failure and comes back as a `HANDLER_FAILED` error; a message that breaks
 * the response rules (a block without a reason, `modified` on a block, a `modified` past the
 * JSON limits, …) as `INVALID_OUTPUT` (`LIMIT_EXCEEDED` for a limit).
 */
export function toHookResponse(message: HookResponseMessage): ValidationResult<HookResponse> {
  if (message.error !== undefined && message.error !== "") {
    return {
      success: false,
      error: new HookError("HANDLER_FAILED", message.error, { path: ["HookResponse", "error"] }),
    };
  }
  const extra: Record<string, unknown> = {};
  if (message.systemMessage) extra.systemMessage = message.systemMessage;
  if (message.suppressOutput) extra.suppressOutput = true;
  let response: Record<string, unknown>;
  switch (message.action) {
    case "continue": {
      response = { action: "continue", ...extra };
      if (message.modified !== undefined) {
        const modified = copyJsonData(message.modified, ["HookResponse", "modified"]);
        if (!modified.success) return modified;
        response.modified = modified.data;
      }
      if (message.permission !== undefined) response.permission = message.permission;
      if (message.additionalContext) response.additionalContext = message.additionalContext;
      break;
    }
    case "block":
      response = { action: "block", reason: message.reason ?? "", ...extra };
      break;
    case "retry":
      response = { action: "retry", ...extra };
      if (message.retryDelayMs !== undefined) response.delay = message.retryDelayMs;
      if (message.reason) response.reason = message.reason;
      break;
    default:
      response = { action: "skip", ...extra };
  }
  if (message.action !== "continue") {
    for (const field of ["modified", "permission", "additionalContext"] as const) {
      if (message[field] !== undefined && message[field] !== "") {
        return {
          success: false,
          error: new HookError(
            "INVALID_OUTPUT",
            `HookResponse.${field}: only a continue may carry ${field}, got action ${JSON.stringify(message.action)}`,
            { path: ["HookResponse", field] },
          ),
        };
      }
    }
  }
  return validate(hookResponseSchema, response, "INVALID_OUTPUT", ["HookResponse"]);
}

/** The engine's {@link HookResponse} → the wire form, answering (`hookId`, `eventId`). */
export function fromHookResponse(
  hookId: string,
  eventId: string,
  response: HookResponse,
): HookResponseMessage {
  const message: HookResponseMessage = { hookId, eventId, action: response.action };
  if (response.systemMessage !== undefined) message.systemMessage = response.systemMessage;
  if (response.suppressOutput) message.suppressOutput = true;
  switch (response.action) {
    case "continue":
      if (response.modified !== undefined) message.modified = response.modified;
      if (response.permission !== undefined) message.permission = response.permission;
      if (response.additionalContext !== undefined)
        message.additionalContext = response.additionalContext;
      break;
    case "block":
      message.reason = response.reason;
      break;
    case "retry":
      if (response.delay !== undefined) message.retryDelayMs = response.delay;
      if (response.reason !== undefined) message.reason = response.reason;
      break;
  }
  return message;
}
