import type { HookType } from "../hook-type.js";
import { oneLine } from "../hook-type.js";
import { createAgentHandler } from "./agent-hook.js";
import type { HookModelClient } from "./model-client.js";
import {
  AGENT_DEFAULT_TIMEOUT_SECONDS,
  type AgentHookDefinition,
  agentHookShape,
  createPromptHandler,
  type HookAgentRunner,
  PROMPT_DEFAULT_TIMEOUT_SECONDS,
  type PromptHookDefinition,
  promptHookShape,
} from "./prompt-hook.js";

/** What the model-backed types read of the host's services. */
export interface ModelDeps {
  projectDir: string;
  modelClient?: HookModelClient | undefined;
  agentRunner?: HookAgentRunner | undefined;
  name?: string | undefined;
}

const named = (name: string | undefined) => (name !== undefined ? { name } : {});

/** The `prompt` hook type: one question to a model about the hook input. */
export const promptHookType: HookType<"prompt", PromptHookDefinition, ModelDeps> = {
  type: "prompt",
  shape: promptHookShape,
  defaultTimeoutSeconds: PROMPT_DEFAULT_TIMEOUT_SECONDS,
  describe: (d) => `prompt: ${oneLine(d.prompt)}`,
  check: () => [],
  create: (d, deps) =>
    createPromptHandler(d, { modelClient: deps.modelClient, ...named(deps.name) }),
};

/** The `agent` hook type: a model that may read the project's files before it answers. */
export const agentHookType: HookType<"agent", AgentHookDefinition, ModelDeps> = {
  type: "agent",
  shape: agentHookShape,
  defaultTimeoutSeconds: AGENT_DEFAULT_TIMEOUT_SECONDS,
  describe: (d) => `agent: ${oneLine(d.prompt)}`,
  check: () => [],
  create: (d, deps) =>
    createAgentHandler(d, {
      modelClient: deps.modelClient,
      agentRunner: deps.agentRunner,
      projectDir: deps.projectDir,
      ...named(deps.name),
    }),
};
