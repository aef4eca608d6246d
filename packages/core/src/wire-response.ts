import { HookError } from "./hook-error.js";
import { CONTINUE, type HookResponse, hookResponseSchema } from "./hook-response.js";
import { copyJsonData } from "./json-limits.js";
import { type ValidationResult, validate } from "./validation.js";
import { type HookResponseMessage, isWireId } from "./wire.js";
import { parseWireMessage } from "./wire-frame.js";

/** A client's answer, checked: the firing it answers and the engine's response. */
export interface CheckedAnswer {
  readonly hookId: string;
  readonly eventId: string;
  readonly response: HookResponse;
}

/**
 * A client's answer as it arrived (JSON, or a decoded gRPC message), checked once: the wire
 * schema and the JSON limits, then the response rules. The response in the answer is ready for
 * the engine (register the handler that returns it with `answersChecked`). Never throws: a
 * malformed answer comes back as an `INVALID_OUTPUT` error naming the field (`LIMIT_EXCEEDED`
 * for a limit), a handler failure the client reported as `HANDLER_FAILED`.
 *
 * @example
 * ```ts
 * const answer = readHookResponse(JSON.parse(text));
 * if (answer.success) pending.get(answer.data.eventId)?.resolve(answer.data.response);
 * ```
 */
export function readHookResponse(raw: unknown): ValidationResult<CheckedAnswer> {
  const quick = quickAnswer(raw);
  if (quick !== undefined) return { success: true, data: quick };
  const parsed = parseWireMessage("HookResponse", raw);
  if (!parsed.success) return parsed;
  // The schema has checked every field and copied `modified` within the JSON limits: only the
  // rules that tie fields to the action are left.
  const response = responseOf(parsed.data, false);
  if (!response.success) return response;
  return {
    success: true,
    data: { hookId: parsed.data.hookId, eventId: parsed.data.eventId, response: response.data },
  };
}

const ACTIONS = new Set(["continue", "block", "retry", "skip"]);

/**
 * Most answers are a bare continue (`{hookId, eventId}`, with `action: "continue"` or none) or
 * a block with a non-empty reason: read those without the schema (the result is the same).
 * Undefined for anything else, which the schema then decides.
 */
function quickAnswer(raw: unknown): CheckedAnswer | undefined {
  if (raw === null || typeof raw !== "object" || Object.getPrototypeOf(raw) !== Object.prototype) {
    return undefined;
  }
  const message = raw as Record<string, unknown>;
  const { hookId, eventId, action, reason } = message;
  let fields = 2;
  if (action !== undefined) fields++;
  if (reason !== undefined) fields++;
  if (
    Object.keys(message).length !== fields ||
    !isWireId(hookId) ||
    typeof eventId !== "string" ||
    eventId.length === 0 ||
    eventId.length > 256 ||
    (action !== undefined && !ACTIONS.has(action as string))
  ) {
    return undefined;
  }
  if (action === undefined || action === "continue") {
    return reason === undefined ? { hookId, eventId, response: CONTINUE } : undefined;
  }
  if (
    action === "block" &&
    typeof reason === "string" &&
    reason !== "" &&
    reason.length <= 65_536
  ) {
    return { hookId, eventId, response: { action: "block", reason } };
  }
  return undefined;
}

/**
 * A client's answer in wire form → the engine's {@link HookResponse}. A message with `error`
 * set is a handler failure and comes back as a `HANDLER_FAILED` error; a message that breaks
 * the response rules (a block without a reason, `modified` on a block, a `modified` past the
 * JSON limits, …) as `INVALID_OUTPUT` (`LIMIT_EXCEEDED` for a limit).
 */
export function toHookResponse(message: HookResponseMessage): ValidationResult<HookResponse> {
  return responseOf(message, true);
}

/**
 * `message` → the engine's response. With `check`, `modified` is copied within the JSON
 * limits and the result validated by the response schema; without, the message is the wire
 * schema's output, whose fields are already what the response schema asks.
 */
function responseOf(message: HookResponseMessage, check: boolean): ValidationResult<HookResponse> {
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
      if (message.modified !== undefined && check) {
        const modified = copyJsonData(message.modified, ["HookResponse", "modified"]);
        if (!modified.success) return modified;
        response.modified = modified.data;
      } else if (message.modified !== undefined) response.modified = message.modified;
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
  if (check) return validate(hookResponseSchema, response, "INVALID_OUTPUT", ["HookResponse"]);
  if (response.action === "block" && response.reason === "") {
    return {
      success: false,
      error: new HookError(
        "INVALID_OUTPUT",
        "HookResponse.reason: a block needs a non-empty reason",
        { path: ["HookResponse", "reason"] },
      ),
    };
  }
  return { success: true, data: response as HookResponse };
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
