import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { copyJsonData, FORBIDDEN_KEYS } from "../base/json-limits.js";
import { type ValidationResult, validate } from "../base/validation.js";
import { readAnswerFields } from "../events/answer-fields.js";
import type { HookEvent } from "../events/event-schemas.js";
import { specOf } from "../events/event-spec.js";
import { deferRoutingSchema } from "./defer-routing.js";
import {
  CONTINUE,
  type ContinueResponse,
  type HookResponse,
  hookResponseSchema,
  MAX_RESPOND_OUTPUT_CHARS,
} from "./hook-response.js";

const opt = z.optional;
const str = z.string();
const bool = z.boolean();
const obj = z.record(z.string(), z.unknown());

/**
 * Every field of every supported output dialect, with its type. Unknown fields are ignored
 * (scripts print extra things), but a known field of the wrong type is an error that names it.
 */
const dialectSchema = z.object({
  // the A3S SDK's
  action: opt(z.enum(["continue", "block", "retry", "skip", "CONTINUE", "BLOCK", "RETRY", "SKIP"])),
  modified: opt(obj),
  delay: opt(z.number().check(z.nonnegative())),
  retry_delay_ms: opt(z.number().check(z.nonnegative())),
  retryDelay: opt(z.number().check(z.nonnegative())),
  permission: opt(z.enum(["allow", "ask", "deny"])),
  // the Rust-agent format's HookOutput
  continue_execution: opt(bool),
  stop_reason: opt(z.nullable(str)),
  suppress_logging: opt(bool),
  system_message: opt(z.nullable(str)),
  updated_input: opt(z.nullable(obj)),
  additional_context: opt(z.nullable(str)),
  // permission decisions / the CLI-agent format / Claude Code
  decision: opt(z.nullable(z.enum(["allow", "deny", "ask", "none", "approve", "block", "modify"]))),
  reason: opt(z.nullable(str)),
  modified_args: opt(z.nullable(obj)),
  metadata: opt(obj),
  continue: opt(bool),
  stopReason: opt(str),
  suppressOutput: opt(bool),
  systemMessage: opt(str),
  additionalContext: opt(str),
  updatedInput: opt(obj),
  // Claude Code's terminal escape sequence for the host to emit: recognised (an answer of this
  // field alone is not a foreign dialect), with no place in the engine.
  terminalSequence: opt(str),
  hookSpecificOutput: opt(
    z.object({
      hookEventName: opt(str),
      permissionDecision: opt(z.enum(["allow", "deny", "ask", "defer"])),
      permissionDecisionReason: opt(str),
      // A3S's extension of `defer`: who may decide and by when; other agents ignore it.
      a3sRouting: opt(deferRoutingSchema),
      // A3S's answer in place of the tool (PreToolUse): the tool does not run, the model reads
      // `output`. Claude Code has no such field; other agents ignore it.
      a3sRespond: opt(
        z.strictObject({
          output: z
            .string()
            .check(
              z.maxLength(
                MAX_RESPOND_OUTPUT_CHARS,
                `at most ${MAX_RESPOND_OUTPUT_CHARS} characters`,
              ),
            ),
        }),
      ),
      updatedInput: opt(obj),
      additionalContext: opt(str),
      // PostToolUse: replaces the tool's output before the model reads it (any value: a string,
      // or the tool's own response shape such as Bash's `{ stdout, stderr }`).
      updatedToolOutput: opt(z.unknown()),
      updatedMCPToolOutput: opt(z.unknown()),
      decision: opt(
        z.object({
          behavior: z.enum(["allow", "deny", "ask"]),
          updatedInput: opt(obj),
          message: opt(str),
        }),
      ),
    }),
  ),
});

const KNOWN_FIELDS = Object.keys(dialectSchema.shape);

/** Options of `normalizeHookOutput`. */
export interface NormalizeOptions {
  /**
   * The event the output answers. With it, a whole-input replacement (Claude Code's
   * `updatedInput`, the Rust-agent format's `updated_input`) removes the arguments it leaves out, as it does
   * in Claude Code; without it, the replacement is merged into the arguments.
   */
  event?: HookEvent;
}

function replaceArgs(
  next: Record<string, unknown>,
  event: HookEvent | undefined,
): Record<string, unknown> {
  const current = (event as { args?: unknown } | undefined)?.args;
  if (!current || typeof current !== "object") return { args: next };
  const patch: Record<string, unknown> = { ...next };
  for (const key of Object.keys(current)) if (!Object.hasOwn(next, key)) patch[key] = null;
  return { args: patch };
}

/**
 * Turn a hook's output, in any supported dialect, into one {@link HookResponse}:
 *
 * - the A3S SDK: `{ action, reason, modified, delay | retry_delay_ms }`
 * - the Rust-agent format: `{ continue_execution, stop_reason, system_message, updated_input, additional_context, suppress_logging }`
 * - permission decisions: `{ decision: "allow" | "deny" | "ask" | "none", reason }`
 * - the CLI-agent format: `{ continue, decision: "approve" | "block" | "modify", reason, modified_args }`
 * - Claude Code: `{ continue, stopReason, decision, reason, systemMessage, suppressOutput,
 *   hookSpecificOutput: { permissionDecision, permissionDecisionReason, updatedInput, additionalContext } }`
 * - A3S's extensions of Claude Code's output, which other agents ignore:
 *   `hookSpecificOutput.a3sRouting` (who decides a deferred call, by when) and
 *   `hookSpecificOutput.a3sRespond: { output }` (PreToolUse: the tool does not run, the model
 *   reads `output`; a block or a defer in the same answer wins over it)
 *
 * With `options.event`, the event's answer fields in `hookSpecificOutput` (`watchPaths`,
 * `worktreePath`, `displayContent`, …: see `EventSpecInit.answers`) are checked by the event's
 * schema and become `modified` fields; a bad one is an `INVALID_OUTPUT` error naming it.
 *
 * When fields disagree, the most restrictive wins: any block beats any allow.
 * `undefined`, `null` and `{}` are "continue".
 */
export function safeNormalizeHookOutput(
  value: unknown,
  options: NormalizeOptions = {},
): ValidationResult<HookResponse> {
  if (value === undefined || value === null) return { success: true, data: CONTINUE };
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      success: false,
      error: new HookError(
        "INVALID_OUTPUT",
        `hook output: expected a JSON object, got ${Array.isArray(value) ? "an array" : typeof value}`,
      ),
    };
  }
  // Within the JSON limits first: the schema's records would drop a `__proto__` key of
  // `updatedInput` without a word, and no later walk may meet a 100 000-level object. (The
  // engine copies the response it gets; here a check is enough.)
  let specific: unknown;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (FORBIDDEN_KEYS.has(key) || field === undefined) continue;
    const checkedField = copyJsonData(field, [key]);
    if (!checkedField.success) return checkedField;
    // The event's answer fields are read from this copy: the schema below drops what it does not name.
    if (key === "hookSpecificOutput") specific = checkedField.data;
  }
  const checked = validate(dialectSchema, value, "INVALID_OUTPUT");
  if (!checked.success) return checked;
  const out = checked.data;
  const keys = Object.keys(value);
  if (keys.length > 0 && !keys.some((k) => KNOWN_FIELDS.includes(k))) {
    return {
      success: false,
      error: new HookError(
        "INVALID_OUTPUT",
        `hook output: no recognised field in {${keys.slice(0, 5).join(", ")}}; expected one of action, decision, continue, hookSpecificOutput, …`,
      ),
    };
  }

  const hso = out.hookSpecificOutput;
  const action = out.action?.toLowerCase();
  const reason =
    out.reason ??
    out.stopReason ??
    out.stop_reason ??
    hso?.permissionDecisionReason ??
    hso?.decision?.message ??
    undefined;
  const systemMessage = out.systemMessage ?? out.system_message ?? undefined;
  const suppressOutput = out.suppressOutput ?? out.suppress_logging;
  const extras = {
    ...(systemMessage ? { systemMessage } : {}),
    ...(suppressOutput !== undefined ? { suppressOutput } : {}),
  };

  // 0. Claude Code's `continue: false` outranks every decision: the turn ends, and its
  // `stopReason` is for the user (the fold turns it into a block where the event can block).
  if (out.continue === false) {
    // The CLI-agent format pairs `continue: false` with `reason`: for the user here too.
    const stopReason = out.stopReason ?? out.stop_reason ?? out.reason ?? undefined;
    return {
      success: true,
      data: {
        action: "continue",
        stopTurn: stopReason ? { reason: stopReason } : {},
        ...extras,
      },
    };
  }

  // Claude Code's `defer` parks the call for a later decision; in non-interactive use Claude
  // Code ends the turn with the call not run, which is what a host that cannot park does.
  if (hso?.permissionDecision === "defer") {
    const why = hso.permissionDecisionReason;
    return {
      success: true,
      data: {
        action: "continue",
        stopTurn: {
          ...(why ? { reason: why } : {}),
          deferred: true,
          ...(hso.a3sRouting !== undefined ? { routing: hso.a3sRouting } : {}),
        },
        ...extras,
      },
    };
  }

  // 1. Anything that says "stop" wins.
  const blocked =
    action === "block" ||
    out.continue_execution === false ||
    out.decision === "block" ||
    out.decision === "deny" ||
    out.permission === "deny" ||
    hso?.permissionDecision === "deny" ||
    hso?.decision?.behavior === "deny";
  const context = [out.additionalContext, out.additional_context, hso?.additionalContext].filter(
    (c): c is string => typeof c === "string" && c.length > 0,
  );
  if (blocked) {
    // PostToolUse's block comes after the tool ran: its context reaches Claude with the reason.
    return {
      success: true,
      data: {
        action: "block",
        reason: reason || "Blocked by hook",
        ...(context.length > 0 ? { additionalContext: context.join("\n") } : {}),
        ...extras,
      },
    };
  }
  // 2. A3S's answer in place of the tool: nothing stopped the call, and the tool does not run.
  if (hso?.a3sRespond !== undefined) {
    const eventType = options.event?.eventType ?? hso.hookEventName;
    if (eventType !== undefined && eventType !== "PreToolUse") {
      return {
        success: false,
        error: new HookError(
          "INVALID_OUTPUT",
          `hookSpecificOutput.a3sRespond: only a PreToolUse answer may answer in place of the tool, got one for ${eventType}`,
        ),
      };
    }
    return { success: true, data: { action: "respond", output: hso.a3sRespond.output, ...extras } };
  }
  if (action === "retry") {
    const delay = out.delay ?? out.retry_delay_ms ?? out.retryDelay;
    const parsed = validate(
      hookResponseSchema,
      {
        action: "retry",
        ...(delay !== undefined ? { delay } : {}),
        ...(reason ? { reason } : {}),
        ...extras,
      },
      "INVALID_OUTPUT",
    );
    return parsed;
  }
  if (action === "skip") return { success: true, data: { action: "skip", ...extras } };

  // 3. Continue, with whatever the dialects add.
  const response: ContinueResponse = { action: "continue", ...extras };
  const replacement =
    hso?.decision?.updatedInput ??
    hso?.updatedInput ??
    out.updatedInput ??
    out.updated_input ??
    undefined;
  if (out.modified) response.modified = out.modified;
  else if (replacement) response.modified = replaceArgs(replacement, options.event);
  else if (out.modified_args) response.modified = { args: out.modified_args };
  // Claude Code: `updatedToolOutput` for every tool (since v2.1.121), `updatedMCPToolOutput` for
  // MCP tools only.
  const tool = (options.event as { tool?: unknown } | undefined)?.tool;
  const mcp = typeof tool !== "string" || tool.startsWith("mcp__");
  const rewritten = hso?.updatedToolOutput ?? (mcp ? hso?.updatedMCPToolOutput : undefined);
  const postToolUse =
    options.event?.eventType === "PostToolUse" ||
    (options.event === undefined && hso?.hookEventName === "PostToolUse");
  if (rewritten !== undefined && postToolUse) {
    response.modified = { ...response.modified, result: { output: toolOutputText(rewritten) } };
  }
  const spec = options.event && specific ? specOf(options.event.eventType) : undefined;
  if (spec && Object.keys(spec.answers).length > 0) {
    const answered = readAnswerFields(spec, specific as Record<string, unknown>);
    if (!answered.success) return answered;
    if (answered.data) response.modified = { ...response.modified, ...answered.data };
  }

  const ask =
    out.decision === "ask" ||
    out.permission === "ask" ||
    hso?.permissionDecision === "ask" ||
    hso?.decision?.behavior === "ask";
  const allowed =
    out.decision === "allow" ||
    out.decision === "approve" ||
    out.permission === "allow" ||
    hso?.permissionDecision === "allow" ||
    hso?.decision?.behavior === "allow";
  if (ask) response.permission = "ask";
  else if (allowed) response.permission = "allow";
  const permissionReason = hso?.permissionDecisionReason ?? (ask || allowed ? out.reason : null);
  if (response.permission && permissionReason) response.permissionReason = permissionReason;

  if (context.length > 0) response.additionalContext = context.join("\n");
  return { success: true, data: Object.keys(response).length === 1 ? CONTINUE : response };
}

/**
 * The text of a PostToolUse hook's `updatedToolOutput` (or `updatedMCPToolOutput`): a string as
 * it is; a built-in tool's response shape (Bash's `{ stdout, stderr }`, Read's `{ file: { content
 * } }`, WebFetch's `{ result }`, our own `{ output }`) as the text that shape holds; anything
 * else as JSON.
 */
function toolOutputText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (typeof v.stdout === "string") {
      return typeof v.stderr === "string" && v.stderr !== ""
        ? `${v.stdout}\n${v.stderr}`
        : v.stdout;
    }
    const file = v.file as Record<string, unknown> | undefined;
    if (file !== null && typeof file === "object" && typeof file.content === "string") {
      return file.content;
    }
    for (const key of ["output", "result", "content"] as const) {
      if (typeof v[key] === "string") return v[key];
    }
  }
  return JSON.stringify(value) ?? "";
}

/** {@link safeNormalizeHookOutput}, throwing `HookError` (`INVALID_OUTPUT`) on bad output. */
export function normalizeHookOutput(value: unknown, options: NormalizeOptions = {}): HookResponse {
  const result = safeNormalizeHookOutput(value, options);
  if (!result.success) throw result.error;
  return result.data;
}
