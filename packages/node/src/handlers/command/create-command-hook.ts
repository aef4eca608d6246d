import type { HookEventNameInput, HookHandler, HookRegistration } from "@a3s-lab/hooks-core";
import type { CommandHookDefinition } from "./command-definition.js";
import {
  CommandHook,
  type CommandHookOptions,
  type CommandRegistrationSpec,
} from "./command-hook.js";

/** Internal: the executor behind a command definition (tests and the CLI use it directly). */
export function createCommandExecutor(
  definition: CommandHookDefinition,
  options?: CommandHookOptions,
): CommandHook {
  return new CommandHook(definition, options);
}

/** Internal: a command definition as a bare core handler, without its timeout or name. */
export function createCommandHook(
  definition: CommandHookDefinition,
  options?: CommandHookOptions,
): HookHandler {
  return new CommandHook(definition, options).handler;
}

/**
 * The way to run a shell command as a hook: a command definition (the shape of a Claude Code
 * settings entry, `timeout` in seconds) plus the event and matcher, as a complete core
 * registration (handler, `timeoutMs`, fail behaviour, priority, name and source) to pass to
 * `engine.register`. Options shared by many command hooks (project directory, environment,
 * output caps, …) go in the second argument.
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
