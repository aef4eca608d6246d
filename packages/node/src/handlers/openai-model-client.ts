import { HookError } from "@a3s-lab/hooks-core";
import type { HookModelClient } from "./model-client.js";

/** Options of {@link openAIModelClient}. */
export interface OpenAIModelClientOptions {
  /** The provider's API root, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as a bearer token; never written into errors. */
  apiKey?: string | undefined;
  /** The model for hooks that set none. */
  defaultModel?: string | undefined;
  /** For tests: the fetch to call. */
  fetch?: typeof fetch;
}

/** An OpenAI-compatible chat-completions provider as a {@link HookModelClient}. */
export function openAIModelClient(options: OpenAIModelClientOptions): HookModelClient {
  void options;
  throw new HookError("INTERNAL", "not implemented yet");
}

/**
 * The default model client, configured by the environment, or undefined when
 * `A3S_HOOKS_MODEL` (the model name) is not set:
 *
 * - `A3S_HOOKS_MODEL`: the model name for hooks that set no `model`; required
 * - `A3S_HOOKS_MODEL_BASE_URL`, else `OPENAI_BASE_URL`, else `https://api.openai.com/v1`
 * - `A3S_HOOKS_MODEL_API_KEY`, else `OPENAI_API_KEY`
 */
export function modelClientFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): HookModelClient | undefined {
  void env;
  return undefined;
}
