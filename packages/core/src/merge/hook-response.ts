import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { copyJsonData, errorText, type MAX_JSON_DEPTH } from "../base/json-limits.js";
import { type ValidationResult, validate } from "../base/validation.js";
import { jsonObjectSchema } from "../events/event-schemas.js";
import { type DeferRouting, deferRoutingSchema } from "./defer-routing.js";

/** The largest delay `setTimeout` honours; anything above fires at once. */
export const MAX_DELAY_MS = 2_147_483_647;

const common = {
  /** A message for the user (Claude Code's `systemMessage`). */
  systemMessage: z.optional(z.string()),
  /** Hide this hook's output from the transcript. */
  suppressOutput: z.optional(z.boolean()),
  /**
   * End the agent's whole turn (Claude Code's `continue: false`): no further tool call or model
   * call in it. It outranks every other field of the answer; `reason` (Claude Code's
   * `stopReason`) is for the user, never the model.
   */
  stopTurn: z.optional(
    z.object({
      reason: z.optional(z.string()),
      /**
       * The hook deferred the tool call (Claude Code's `permissionDecision: "defer"`): a host
       * that can park the call waits for a decision and resumes it; one that cannot ends the
       * turn without running it, as Claude Code does in non-interactive use.
       */
      deferred: z.optional(z.literal(true)),
      /**
       * Who may decide the deferred call and by when (an A3S extension; read only with
       * `deferred`). See {@link DeferRouting}.
       */
      routing: z.optional(deferRoutingSchema),
    }),
  ),
};

export const continueResponseSchema = z.object({
  action: z.literal("continue"),
  /**
   * A JSON merge patch (RFC 7386) of the event's modifiable fields, e.g.
   * `{ args: { timeout: 30000 } }` for PreToolUse.
   */
  modified: z.optional(jsonObjectSchema),
  /** `allow` skips the host's permission prompt; `ask` forces it. A deny is a block. */
  permission: z.optional(z.enum(["allow", "ask"])),
  /**
   * Why the hook decided `permission` (Claude Code's `permissionDecisionReason`): for `ask`, the
   * host shows it to the user in the permission question.
   */
  permissionReason: z.optional(z.string()),
  /** Text added to the model's context. */
  additionalContext: z.optional(z.string()),
  ...common,
});

export const blockResponseSchema = z.object({
  action: z.literal("block"),
  reason: z.string().check(z.minLength(1, "a block needs a non-empty reason")),
  /**
   * Text for the model's context besides the reason. It counts where the block does not end the
   * fold: on PostToolUse and PostToolUseFailure, whose block comes after the tool ran.
   */
  additionalContext: z.optional(z.string()),
  ...common,
});

export const retryResponseSchema = z.object({
  action: z.literal("retry"),
  /** Milliseconds to wait before the host tries again. */
  delay: z.optional(z.number().check(z.nonnegative(), z.lte(MAX_DELAY_MS))),
  reason: z.optional(z.string()),
  ...common,
});

export const skipResponseSchema = z.object({
  action: z.literal("skip"),
  ...common,
});

/**
 * The most UTF-16 code units of tool output a `respond` answer may carry (1 MiB of text): the
 * same bound the wire puts on the model context a hook adds.
 */
export const MAX_RESPOND_OUTPUT_CHARS = 1_048_576;

export const respondResponseSchema = z.object({
  action: z.literal("respond"),
  /**
   * The tool's result as the model reads it: the tool does not run. Only a PreToolUse answer
   * may respond; on any other event it is the hook's failure.
   */
  output: z
    .string()
    .check(
      z.maxLength(
        MAX_RESPOND_OUTPUT_CHARS,
        `a respond output holds at most ${MAX_RESPOND_OUTPUT_CHARS} characters`,
      ),
    ),
  ...common,
});

/** What a hook answers. Validated before the engine uses it. */
export const hookResponseSchema = z.discriminatedUnion("action", [
  continueResponseSchema,
  blockResponseSchema,
  retryResponseSchema,
  skipResponseSchema,
  respondResponseSchema,
]);

/** Go on (optionally with changed fields, a permission decision, context or a message). */
export type ContinueResponse = z.output<typeof continueResponseSchema>;
/** Stop the operation, with a reason. */
export type BlockResponse = z.output<typeof blockResponseSchema>;
/** Ask the host to try again, after `delay` milliseconds. */
export type RetryResponse = z.output<typeof retryResponseSchema>;
/** End the fold here: the hooks after this one are not consulted. */
export type SkipResponse = z.output<typeof skipResponseSchema>;
/** Answer a PreToolUse in place of the tool: the tool does not run; the model reads `output`. */
export type RespondResponse = z.output<typeof respondResponseSchema>;

/**
 * A hook's answer:
 * - `continue`: go on, optionally with `modified`, `permission`, `additionalContext`, …
 * - `block`: stop the operation, with a reason the agent can show (a permission deny is a block)
 * - `retry`: the host should try again after `delay` ms
 * - `skip`: ignore the hooks after this one; the operation goes on
 * - `respond` (PreToolUse only): answer in place of the tool, which does not run
 */
export type HookResponse =
  | ContinueResponse
  | BlockResponse
  | RetryResponse
  | SkipResponse
  | RespondResponse;
/** A response's `action`: `continue`, `block`, `retry`, `skip` or `respond`. */
export type HookAction = HookResponse["action"];
/** A hook's say on a permission prompt: `allow` skips it, `ask` shows it, `deny` blocks. */
export type PermissionDecision = "allow" | "ask" | "deny";

/** The shared "go on" answer. Frozen, so it is safe to return from any hook. */
export const CONTINUE: ContinueResponse = Object.freeze({ action: "continue" });

/**
 * Go on, with extra fields (`systemMessage`, `additionalContext`, `permission`, …); without
 * any, the shared {@link CONTINUE}.
 */
export function continueWith(extra: Omit<ContinueResponse, "action"> = {}): ContinueResponse {
  return Object.keys(extra).length === 0 ? CONTINUE : { action: "continue", ...extra };
}

/** Stop the operation. */
export function block(
  reason: string,
  extra: Pick<BlockResponse, "systemMessage" | "suppressOutput"> = {},
): BlockResponse {
  return { action: "block", reason, ...extra };
}

/** A permission deny: the same as {@link block}. */
export const deny = block;

/**
 * Defer a tool call (Claude Code's `permissionDecision: "defer"`): the call does not run now; a
 * host that parks calls keeps it for a person, routed as `routing` says, and resumes it once
 * someone decides. `reason` is shown to whoever decides.
 *
 * @example
 * ```ts
 * engine.register({ event: "PreToolUse",
 *   matcher: { tool: "Bash", commandPattern: "^git push" },
 *   handler: () => defer("pushing needs a person", { deciders: ["alice"], deadline: "30m" }) });
 * ```
 */
export function defer(reason?: string, routing?: DeferRouting): ContinueResponse {
  return {
    action: "continue",
    stopTurn: {
      ...(reason !== undefined ? { reason } : {}),
      deferred: true,
      ...(routing !== undefined ? { routing } : {}),
    },
  };
}

/** Go on, and tell the host no permission prompt is needed. */
export function allow(
  extra: Omit<ContinueResponse, "action" | "permission"> = {},
): ContinueResponse {
  return { action: "continue", permission: "allow", ...extra };
}

/** Go on, but make the host ask the user. */
export function ask(extra: Omit<ContinueResponse, "action" | "permission"> = {}): ContinueResponse {
  return { action: "continue", permission: "ask", ...extra };
}

/**
 * Go on with a merge patch of the event's modifiable fields.
 *
 * @example
 * ```ts
 * engine.register({ event: "PreToolUse", matcher: "Bash",
 *   handler: (e) => modify({ args: { timeout: 30_000 } }) });
 * ```
 */
export function modify(
  patch: Record<string, unknown>,
  extra: Omit<ContinueResponse, "action" | "modified"> = {},
): ContinueResponse {
  return { action: "continue", modified: patch, ...extra };
}

/** Ask the host to retry the operation after `delay` milliseconds. */
export function retry(delay?: number, reason?: string): RetryResponse {
  const response: RetryResponse = { action: "retry" };
  if (delay !== undefined) response.delay = delay;
  if (reason !== undefined) response.reason = reason;
  return response;
}

/** Ignore the hooks after this one; the operation goes on. */
export function skip(): SkipResponse {
  return { action: "skip" };
}

/**
 * Answer a tool call in place of the tool (PreToolUse only): the tool does not run, and
 * PostToolUse hooks and the model see `output` as its result.
 *
 * @example
 * ```ts
 * engine.register({ event: "PreToolUse", matcher: "WebFetch",
 *   handler: (e) => (cache.has(e.args.url) ? respond(cache.get(e.args.url)) : undefined) });
 * ```
 */
export function respond(
  output: string,
  extra: Pick<RespondResponse, "systemMessage" | "suppressOutput"> = {},
): RespondResponse {
  return { action: "respond", output, ...extra };
}

/** Go on and add text to the model's context. */
export function addContext(text: string): ContinueResponse {
  return { action: "continue", additionalContext: text };
}

/**
 * Check what a handler returned: nothing is "continue"; the two commonest answers, a bare
 * `{ action: "continue" }` and `{ action: "block", reason }`, need no schema run (they are most
 * of the hot path, and a remote answer has been checked on its way in already); anything else
 * is validated by the schema, its `modified` first copied as plain data (see
 * {@link copyJsonData}: no deeper than {@link MAX_JSON_DEPTH}, no `__proto__`, `constructor` or
 * `prototype` key at any level). Returns the response, or a `HookError` naming what is wrong (`INVALID_OUTPUT`, or
 * `LIMIT_EXCEEDED` for data past a limit). Never throws, whatever getters or Proxies the value
 * holds.
 */
export function checkHookResponse(value: unknown): HookResponse | HookError {
  try {
    if (value === undefined || value === null) return CONTINUE;
    const action = (value as { action?: unknown }).action;
    if (action === "continue" && Object.keys(value as object).length === 1) return CONTINUE;
    if (action === "block") {
      const block = quickBlock(value as object);
      if (block !== undefined) return block;
    }
    let candidate = value;
    // Read once and copied, so what the merge applies is what was checked.
    const modified = (value as { modified?: unknown }).modified;
    if (modified !== undefined) {
      const copy = copyJsonData(modified, ["response", "modified"]);
      if (!copy.success) return copy.error;
      candidate = { ...(value as object), modified: copy.data };
    }
    const checked = validate(hookResponseSchema, candidate, "INVALID_OUTPUT", ["response"]);
    return checked.success ? (checked.data as HookResponse) : checked.error;
  } catch (error) {
    return new HookError("INVALID_OUTPUT", `response: could not be read (${errorText(error)})`, {
      cause: error,
      path: ["response"],
    });
  }
}

/**
 * Check a value as a hook's answer, zod-style: `{ success: true, data }` with the response
 * (nothing is "continue"; `modified` copied as plain data), or `{ success: false, error }` with a
 * `HookError` naming what is wrong (`INVALID_OUTPUT`, or `LIMIT_EXCEEDED` for data past a
 * limit). Never throws.
 *
 * @example
 * ```ts
 * const answer = safeParseHookResponse(JSON.parse(line));
 * if (!answer.success) console.error(answer.error.message);
 * ```
 */
export function safeParseHookResponse(value: unknown): ValidationResult<HookResponse> {
  const checked = checkHookResponse(value);
  return checked instanceof HookError
    ? { success: false, error: checked }
    : { success: true, data: checked };
}

/** A plain `{ action: "block", reason }` with a non-empty reason and nothing else, copied. */
function quickBlock(value: object): BlockResponse | undefined {
  if (
    Object.getPrototypeOf(value) !== Object.prototype ||
    Object.keys(value).length !== 2 ||
    !Object.hasOwn(value, "action") ||
    !Object.hasOwn(value, "reason")
  ) {
    return undefined;
  }
  const reason = (value as { reason: unknown }).reason;
  return typeof reason === "string" && reason !== "" ? { action: "block", reason } : undefined;
}
