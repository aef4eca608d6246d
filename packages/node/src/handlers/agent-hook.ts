import { HookError } from "@a3s-lab/hooks-core";
import type { SettingsHandler } from "./handler.js";
import type { AgentHandlerDeps, AgentHookDefinition } from "./prompt-hook.js";

/**
 * The handler of one `agent` hook: a verifier that may read the project (Read, Grep, Glob,
 * confined to the project directory) for a bounded number of turns, then answers like a
 * `prompt` hook.
 */
export function createAgentHandler(
  definition: AgentHookDefinition,
  deps: AgentHandlerDeps,
): SettingsHandler {
  void definition;
  void deps;
  throw new HookError("INTERNAL", "agent hooks are not implemented yet");
}
