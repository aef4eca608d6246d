import type { HookEventName } from "../events/event-schemas.js";
import type { HookHandler } from "./registration.js";

const checked = new WeakSet<object>();

/**
 * Marks a handler whose answers are already checked `HookResponse` values, so the engine
 * takes them as they are instead of validating each one again. For transports: the hook server
 * validates a remote client's answer once, where it enters the agent's process, and registers
 * its remote hooks with this mark. A handler written by hand should not be marked: an unchecked
 * answer would reach the merge unvalidated. Returns the handler itself.
 *
 * @example
 * ```ts
 * engine.register({
 *   event: "PreToolUse",
 *   handler: answersChecked((event, ctx) => transport.ask(event, ctx)), // resolves checked answers
 * });
 * ```
 */
export function answersChecked<H extends HookHandler<HookEventName> | HookHandler<never>>(
  handler: H,
): H {
  checked.add(handler);
  return handler;
}

/** True for a handler marked with {@link answersChecked}. */
export function hasCheckedAnswers(handler: unknown): boolean {
  return typeof handler === "function" && checked.has(handler);
}
