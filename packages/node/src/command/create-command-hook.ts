import type { HookEventNameInput, HookHandler, HookRegistration } from "@a3s-lab/hooks-core";
import type { CommandHookDefinition } from "./command-definition.js";
import {
  CommandHook,
  type CommandHookOptions,
  type CommandRegistrationSpec,
} from "./command-hook.js";

/** Make a {@link CommandHook}: the executor behind a command definition. */
export function createCommandExecutor(
  definition: CommandHookDefinition,
  options?: CommandHookOptions,
): CommandHook {
  return new CommandHook(definition, options);
}

/**
 * Turn a command definition into a core hook handler.
 *
 * @example
 * ```ts
 * engine.register({
 *   event: "PreToolUse",
 *   matcher: "Bash",
 *   timeout: 10_000,
 *   handler: createCommandHook({ type: "command", command: "./hooks/check-bash.sh", timeout: 10 }),
 * });
 * ```
 */
export function createCommandHook(
  definition: CommandHookDefinition,
  options?: CommandHookOptions,
): HookHandler {
  return new CommandHook(definition, options).handler;
}

/**
 * A complete core registration for a command hook: event, matcher, handler, timeout (ms),
 * fail behaviour, priority, name and source.
 *
 * @example
 * ```ts
 * engine.register(
 *   commandHookRegistration({ event: "PreToolUse", matcher: "Bash", command: "./check.sh", timeout: 5 }),
 * );
 * ```
 */
export function commandHookRegistration<N extends HookEventNameInput>(
  spec: CommandHookDefinition & CommandRegistrationSpec<N>,
  options?: CommandHookOptions,
): HookRegistration<N> {
  const { event, matcher, source, id, failBehavior, ...definition } = spec;
  const hook = new CommandHook(
    failBehavior !== undefined ? { ...definition, failBehavior } : definition,
    options,
  );
  return hook.registration({ event, matcher, source, id });
}
