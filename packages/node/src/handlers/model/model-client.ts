/**
 * The small model interface `prompt` and `agent` hooks call. A host with its own model adapts it
 * to this; `modelClientFromEnv` gives the default one, an OpenAI-compatible chat-completions
 * provider.
 */

/** One message of a conversation with the model. */
export type ModelMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: readonly ModelToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

/** A tool the model may call: a name, what it does, and a JSON Schema of its arguments. */
export interface ModelTool {
  /** The name the model calls it by. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** A JSON Schema object describing the arguments. */
  parameters: Record<string, unknown>;
}

/** A call the model asked for. `arguments` is the model's JSON text, not yet trusted or parsed. */
export interface ModelToolCall {
  /** The model's id for the call; the tool message that answers it carries the same. */
  id: string;
  /** The tool it wants. */
  name: string;
  /** The arguments as the model wrote them: JSON text, parse before use. */
  arguments: string;
}

/** One request to the model. */
export interface ModelRequest {
  /** The conversation so far, oldest first. */
  messages: readonly ModelMessage[];
  /** Tools offered for this turn; absent for a single-turn `prompt` hook. */
  tools?: readonly ModelTool[];
  /** The hook's `model` field, or the client's default when the hook sets none. */
  model?: string;
  /** Aborted when the hook times out or the firing is cancelled; the client must stop then. */
  signal: AbortSignal;
}

/** What the model answered: text, tool calls, or both. */
export interface ModelReply {
  /** The answer's text (empty when it only calls tools). */
  text: string;
  /** The tools it wants called, in order. */
  toolCalls?: readonly ModelToolCall[];
}

/**
 * A model, as `prompt` and `agent` hooks see it: one call, messages in, text or tool calls out.
 * Throw a `HookError` (`UNAVAILABLE` when the provider cannot be reached, `ABORTED` when the
 * signal fired, `HANDLER_FAILED` otherwise); anything else thrown is read as `HANDLER_FAILED`.
 */
export interface HookModelClient {
  /** Send one request and answer the model's reply. */
  complete(request: ModelRequest): Promise<ModelReply>;
  /** The model name used when a hook sets none; a hook without `model` needs one. */
  readonly defaultModel?: string;
}
