import type { HookType } from "../hook-type.js";
import {
  type CommandHookDefinition,
  commandHookShape,
  describeCommand,
} from "./command-definition.js";

/**
 * The `command` hook type (also a definition with no `type`): a shell command or argv spawned
 * per event. It has no `create`: it registers through `CommandHook`, whose spawn options
 * (environment, working directory, output caps) are the host's.
 */
export const commandHookType: HookType<"command", CommandHookDefinition, unknown> = {
  type: "command",
  shape: commandHookShape,
  // The A3S default since the first release: a hung command holds the agent up for one minute, not ten.
  defaultTimeoutSeconds: 60,
  describe: describeCommand,
  check: () => [],
  create: undefined,
};
