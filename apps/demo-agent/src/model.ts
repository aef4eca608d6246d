import type { Message, ModelConfig, TokenUsage, ToolCall } from "@a3s-lab/hooks-core";

/** A tool as a model sees it: name, description and a JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One generation request. */
export interface ModelRequest {
  systemPrompt?: string | undefined;
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  signal?: AbortSignal | undefined;
}

/** What a model answers: text, tool calls (possibly none) and the tokens it used. */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
}

/**
 * The seam between the agent loop and a language model. The scripted model implements it
 * offline; the OpenAI-compatible provider implements it over HTTP.
 */
export interface Model {
  /** Name and provider, as GenerateStart and GenerateEnd report them. */
  readonly config: ModelConfig;
  generate(request: ModelRequest): Promise<ModelResponse>;
}
