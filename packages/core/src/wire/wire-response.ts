import { HookError } from "../base/hook-error.js";
import { copyJsonData } from "../base/json-limits.js";
import { type ValidationResult, validate } from "../base/validation.js";
import {
  CONTINUE,
  defer,
  type HookResponse,
  hookResponseSchema,
  MAX_RESPOND_OUTPUT_CHARS,
} from "../merge/hook-response.js";
import { type HookResponseMessage, isWireId } from "./wire.js";
import { parseWireMessage } from "./wire-frame.js";

/** A client's answer, checked: the firing it answers and the engine's response. */
export interface CheckedAnswer {
  /** The hook the answer is from. */
  readonly hookId: string;
  /** The firing it answers. */
  readonly eventId: string;
  /** The answer, checked and ready for the engine. */
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
    case "respond":
      response = { action: "respond", output: message.output ?? "", ...extra };
      break;
    case "defer":
      response = { ...defer(message.reason || undefined, message.routing), ...extra };
      break;
    default:
      response = { action: "skip", ...extra };
  }
  if (message.action !== "respond" && message.output !== undefined && message.output !== "") {
    return {
      success: false,
      error: new HookError(
        "INVALID_OUTPUT",
        `HookResponse.output: only a respond may carry output, got action ${JSON.stringify(message.action)}`,
        { path: ["HookResponse", "output"] },
      ),
    };
  }
  if (message.action !== "defer" && message.routing !== undefined) {
    return {
      success: false,
      error: new HookError(
        "INVALID_OUTPUT",
        `HookResponse.routing: only a defer may carry routing, got action ${JSON.stringify(message.action)}`,
        { path: ["HookResponse", "routing"] },
      ),
    };
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

/**
 * The longest text field (`reason`, `systemMessage`, `additionalContext`, `error`) of an answer
 * a client sends, in UTF-16 code units. Longer text is cut by {@link sendableAnswer} and ends
 * with `… (N more characters)`, as a command hook's reason is: a guard's block reason often
 * quotes the input, whose size the attacker picks, and a block must still fit on the wire.
 */
export const MAX_ANSWER_TEXT_CHARS = 8192;

/**
 * The most bytes of JSON (UTF-8) an answer's `modified` may take: what still fits in the hook
 * server's default message limit (4 MiB) with every text field at its longest. Past it the
 * answer cannot be sent, and {@link sendableAnswer} fails it with `LIMIT_EXCEEDED`.
 */
export const MAX_ANSWER_MODIFIED_BYTES = 4 * 1024 * 1024 - 256 * 1024;

const TEXT_FIELDS = ["reason", "systemMessage", "additionalContext", "error"] as const;

/**
 * `text` cut to `max` code units (default {@link MAX_ANSWER_TEXT_CHARS}), never between the two
 * halves of a surrogate pair, ending with `… (N more characters)`.
 */
export function clipText(text: string, max: number = MAX_ANSWER_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD it is sent as). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // 4 bytes for the pair
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * An answer as a client sends it, bounded so the agent's server never refuses it: each text
 * field cut to {@link MAX_ANSWER_TEXT_CHARS}, so a block always arrives as a block (the server
 * would otherwise refuse the answer, or end the client's stream, and the firing would take the
 * hook's fail behaviour: a continue, by default). A `modified` whose JSON is over
 * {@link MAX_ANSWER_MODIFIED_BYTES} cannot be cut without changing what it means: that is a
 * `LIMIT_EXCEEDED` error naming `HookResponse.modified`, which the caller answers as the hook's
 * failure. Every transport's answers pass through here (the client's hook runner calls it).
 */
export function sendableAnswer(
  message: HookResponseMessage,
): ValidationResult<HookResponseMessage> {
  let bounded = message;
  for (const field of TEXT_FIELDS) {
    const text = message[field];
    if (text !== undefined && text.length > MAX_ANSWER_TEXT_CHARS) {
      if (bounded === message) bounded = { ...message };
      bounded[field] = clipText(text, MAX_ANSWER_TEXT_CHARS);
    }
  }
  if (message.output !== undefined && message.output.length > MAX_RESPOND_OUTPUT_CHARS) {
    // A tool result cut short would read as the whole result: refused, not cut.
    return {
      success: false,
      error: new HookError(
        "LIMIT_EXCEEDED",
        `HookResponse.output: ${message.output.length} characters; a respond carries at most ${MAX_RESPOND_OUTPUT_CHARS}`,
        {
          path: ["HookResponse", "output"],
          details: { chars: message.output.length, limit: MAX_RESPOND_OUTPUT_CHARS },
        },
      ),
    };
  }
  if (message.modified !== undefined) {
    const json = JSON.stringify(message.modified);
    const bytes = json.length * 3 <= MAX_ANSWER_MODIFIED_BYTES ? json.length : utf8Length(json);
    if (bytes > MAX_ANSWER_MODIFIED_BYTES) {
      return {
        success: false,
        error: new HookError(
          "LIMIT_EXCEEDED",
          `HookResponse.modified: ${bytes} bytes of JSON; an answer carries at most ${MAX_ANSWER_MODIFIED_BYTES}`,
          {
            path: ["HookResponse", "modified"],
            details: { bytes, limit: MAX_ANSWER_MODIFIED_BYTES },
          },
        ),
      };
    }
  }
  return { success: true, data: bounded };
}

/** The engine's {@link HookResponse} → the wire form, answering (`hookId`, `eventId`). */
export function fromHookResponse(
  hookId: string,
  eventId: string,
  response: HookResponse,
): HookResponseMessage {
  // A defer is its own action on the wire; what else the answer held does not count.
  const deferred = response.stopTurn?.deferred ? response.stopTurn : undefined;
  const action = deferred !== undefined ? "defer" : response.action;
  const message: HookResponseMessage = { hookId, eventId, action };
  if (response.systemMessage !== undefined) message.systemMessage = response.systemMessage;
  if (response.suppressOutput) message.suppressOutput = true;
  if (deferred !== undefined) {
    if (deferred.reason !== undefined) message.reason = deferred.reason;
    if (deferred.routing !== undefined) message.routing = deferred.routing;
    return message;
  }
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
    case "respond":
      message.output = response.output;
      break;
  }
  return message;
}
