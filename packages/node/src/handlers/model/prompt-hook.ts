import { HookError } from "@a3s-lab/hooks-core";
import * as z from "zod";
import type { SettingsHandler } from "../handler.js";
import { secondsSchema } from "../hook-common.js";
import { ANSWER_INSTRUCTIONS, interpretModelAnswer, renderPromptOrBlock } from "./model-answer.js";
import type { HookModelClient, ModelReply, ModelRequest, ModelToolCall } from "./model-client.js";
import { MAX_TOOL_CALLS_PER_REPLY } from "./openai-model-client.js";

/** Claude Code's default for a `prompt` hook that sets no `timeout`: 30 seconds. */
export const PROMPT_DEFAULT_TIMEOUT_SECONDS = 30;
/** Claude Code's default for an `agent` hook that sets no `timeout`: 60 seconds. */
export const AGENT_DEFAULT_TIMEOUT_SECONDS = 60;

const promptField = z
  .string({ error: "expected the prompt text" })
  .min(1, { error: "expected a non-empty prompt" })
  .max(65_536, { error: "expected a prompt of at most 65536 characters" })
  .describe(
    "What the model is asked. $ARGUMENTS is replaced by the hook input as JSON (appended when absent); \\$ writes a literal $.",
  );

const modelField = z
  .string({ error: "expected a model name" })
  .min(1, { error: "expected a non-empty model name" })
  .max(256, { error: "expected a model name of at most 256 characters" })
  .describe("The model name passed to the model client. Default: A3S_HOOKS_MODEL.");

/** The fields of a `prompt` hook of its own (the common fields are the dispatcher's). */
export const promptHookShape = {
  type: z.literal("prompt", { error: 'expected "prompt"' }),
  prompt: promptField,
  model: modelField.optional(),
  timeout: secondsSchema
    .optional()
    .describe(
      `Seconds before the model call is cancelled. Default ${PROMPT_DEFAULT_TIMEOUT_SECONDS}.`,
    ),
};

/** The fields of an `agent` hook of its own (the common fields are the dispatcher's). */
export const agentHookShape = {
  type: z.literal("agent", { error: 'expected "agent"' }),
  prompt: promptField,
  model: modelField.optional(),
  timeout: secondsSchema
    .optional()
    .describe(
      `Seconds before the verifier is cancelled. Default ${AGENT_DEFAULT_TIMEOUT_SECONDS}.`,
    ),
};

/** A `prompt` hook: one model call that answers `{ "ok": boolean, "reason"?: string }`. */
export interface PromptHookDefinition {
  /** Always `"prompt"`. */
  type: "prompt";
  /** `$ARGUMENTS` is replaced by the hook input as JSON; without it, the input is appended. */
  prompt: string;
  /** The model name; default: the client's (`A3S_HOOKS_MODEL`). */
  model?: string;
  /** Seconds. Default 30. */
  timeout?: number;
}

/** An `agent` hook: a multi-turn verifier with read-only tools that answers like a `prompt` hook. */
export interface AgentHookDefinition {
  /** Always `"agent"`. */
  type: "agent";
  /**
   * What the verifier is asked; `$ARGUMENTS` is replaced by the hook input as JSON (appended when
   * absent).
   */
  prompt: string;
  /** The model name; default: the client's (`A3S_HOOKS_MODEL`). */
  model?: string;
  /** Seconds. Default 60. */
  timeout?: number;
}

/** What `createPromptHandler` needs from the host. */
export interface PromptHandlerDeps {
  /**
   * The model to ask: the host's own, or `modelClientFromEnv(process.env)`. Without one (or
   * without a model name, from the hook or the client), the factory throws `INVALID_CONFIG`
   * naming the hook: the settings report it at load time instead of skipping it silently.
   */
  modelClient?: HookModelClient | undefined;
  /** The hook's name for messages (`hooks.Stop[0].hooks[0]`, or its `name`). */
  name?: string;
}

/** One run of an agent verifier, as a host that brings its own agent receives it. */
export interface AgentRunRequest {
  /** The system instructions and the rendered prompt (with the hook input in it). */
  system: string;
  /** The hook's prompt, rendered: the hook input is in it. */
  prompt: string;
  /** The hook's `model` field, if any. */
  model?: string;
  /** The project directory the verifier may read. */
  projectDir: string;
  /** Aborted on the hook's timeout or a cancelled firing. */
  signal: AbortSignal;
}

/**
 * A host's own agent: it runs the verifier however it likes and resolves to the verifier's
 * final answer text, which is read as a `prompt` hook's is (a JSON object with a boolean
 * `ok`; no verdict is never an allow).
 */
export type HookAgentRunner = (request: AgentRunRequest) => Promise<string>;

/** What `createAgentHandler` needs from the host. */
export interface AgentHandlerDeps extends PromptHandlerDeps {
  /** The host's own agent; when absent, the built-in verifier runs on `modelClient`. */
  agentRunner?: HookAgentRunner | undefined;
  /** The directory the built-in verifier's Read, Grep and Glob tools are confined to. */
  projectDir: string;
}

/** The model name a hook will use, or a load-time error naming the hook. */
export function requireModel(
  kind: "prompt" | "agent",
  definition: { model?: string },
  client: HookModelClient | undefined,
  name: string | undefined,
): { client: HookModelClient; model: string } {
  const which = name ? `${kind} hook ${name}` : `${kind} hook`;
  if (!client) {
    throw new HookError(
      "INVALID_CONFIG",
      `${which}: no model is configured; set A3S_HOOKS_MODEL (and A3S_HOOKS_MODEL_BASE_URL / A3S_HOOKS_MODEL_API_KEY, or OPENAI_BASE_URL / OPENAI_API_KEY), or give the host a model client`,
      { details: { hook: name } },
    );
  }
  const model = definition.model ?? client.defaultModel;
  if (model === undefined || model === "") {
    throw new HookError(
      "INVALID_CONFIG",
      `${which}: no model name; set the hook's "model" or A3S_HOOKS_MODEL`,
      { details: { hook: name } },
    );
  }
  return { client, model };
}

/**
 * The handler of one `prompt` hook: render the prompt with the hook input, ask the model once,
 * and read its answer (see `interpretModelAnswer`). `{"ok": true}` continues; `{"ok": false,
 * "reason"}` anywhere in the answer blocks with the reason (on `Stop` and `SubagentStop` a block
 * means "keep going", with the reason as the next instruction). An answer with no verdict is
 * never an allow: a block on an event that can block, else an `INVALID_OUTPUT` failure.
 */
export function createPromptHandler(
  definition: PromptHookDefinition,
  deps: PromptHandlerDeps,
): SettingsHandler {
  const { client, model } = requireModel("prompt", definition, deps.modelClient, deps.name);
  return async ({ event, input, signal }) => {
    const rendered = renderPromptOrBlock(definition.prompt, input, event);
    if ("blocked" in rendered) return rendered.blocked;
    const reply = await callModel(client, {
      messages: [
        { role: "system", content: ANSWER_INSTRUCTIONS },
        { role: "user", content: rendered.prompt },
      ],
      model,
      signal,
    });
    return interpretModelAnswer(reply.text, event);
  };
}

/**
 * A client call whose failures are `HookError`s (a client's own errors are `HANDLER_FAILED`)
 * and whose reply has the promised shape: a host's client is code we did not write.
 */
export async function callModel(
  client: HookModelClient,
  request: ModelRequest,
): Promise<ModelReply> {
  let reply: ModelReply;
  try {
    reply = await client.complete(request);
  } catch (error) {
    if (request.signal.aborted && HookError.is(request.signal.reason)) throw request.signal.reason;
    if (HookError.is(error)) throw error;
    throw new HookError(
      "HANDLER_FAILED",
      `the model call failed: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  const calls: unknown = reply?.toolCalls;
  const wellFormed =
    typeof reply?.text === "string" &&
    (calls === undefined ||
      (Array.isArray(calls) &&
        calls.length <= MAX_TOOL_CALLS_PER_REPLY &&
        calls.every(
          (c: Partial<ModelToolCall> | null) =>
            typeof c?.id === "string" &&
            typeof c.name === "string" &&
            typeof c.arguments === "string",
        )));
  if (!wellFormed) {
    throw new HookError(
      "INVALID_OUTPUT",
      `the model client's reply is not { text, toolCalls? } (at most ${MAX_TOOL_CALLS_PER_REPLY} calls of { id, name, arguments } strings)`,
    );
  }
  return reply;
}
