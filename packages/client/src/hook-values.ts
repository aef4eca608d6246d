import {
  addContext,
  allow,
  ask,
  block,
  type HookEvent as CoreHookEvent,
  type HookResponse as CoreHookResponse,
  continueWith,
  defer,
  deny,
  hookEventNames,
  isHookEventName,
  modify,
  resolveEventName,
  respond,
  retry,
  skip,
  validateEvent,
} from "@a3s-lab/hooks-core";

/**
 * A hook's answer (`continue`, `block`, `retry`, `skip`, `respond`, a defer), and the helpers that build one,
 * under one name, the way the A3S SDKs spell it: `HookResponse.block("reason")`.
 *
 * @example
 * ```ts
 * client.registerHook("PreToolUse", (event) =>
 *   event.tool === "Bash" ? HookResponse.block("no shell today") : HookResponse.continue());
 * ```
 */
export type HookResponse = CoreHookResponse;
/** The helpers that build a {@link HookResponse}: `HookResponse.block("reason")`, … */
export const HookResponse = Object.freeze({
  /** Go on, unchanged or with extra fields (`systemMessage`, `additionalContext`, …). */
  continue: (extra?: Parameters<typeof continueWith>[0]) => continueWith(extra),
  block,
  deny,
  allow,
  ask,
  modify,
  retry,
  skip,
  /**
   * Answer a PreToolUse in place of the tool: the agent does not run it, and the model reads
   * `output` as its result. `HookResponse.respond("cached page")`.
   */
  respond,
  /**
   * Defer a PreToolUse (Claude Code's permission decision `defer`): the agent parks the call for
   * a person, routed as `routing` says (who may decide, by when, what the deadline decides).
   * `HookResponse.defer("pushing needs a person", { deciders: ["alice"], deadline: "30m" })`.
   * A malformed routing is the hook's failure, naming the field; so is a defer on another event.
   */
  defer,
  addContext,
});

/** Any event a hook can receive (narrow it with `event.eventType`), and a few helpers. */
export type HookEvent = CoreHookEvent;
/** Helpers about events: the names, a name check, validation. */
export const HookEvent = Object.freeze({
  /** Every canonical event name. */
  names: hookEventNames,
  /** True for a canonical event name. */
  is: isHookEventName,
  /** The canonical name for any accepted spelling (`pre_tool_use`, `ToolError`, …). */
  resolve: resolveEventName,
  /** Check an event object against its schema. */
  validate: validateEvent,
});
