import type { Message, ModelConfig, ToolCall } from "@a3s-lab/hooks-core";
import type OpenAI from "openai";
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { AgentError } from "./agent-error.js";
import type { Model, ModelRequest, ModelResponse } from "./model.js";
import { estimateMessageTokens, estimateTokens } from "./token-estimate.js";

export interface OpenAiModelOptions {
  /** The model name the server knows, e.g. `gpt-4o-mini` or a local model's name. */
  model: string;
  /** Default: `OPENAI_BASE_URL`, else OpenAI's own. */
  baseURL?: string | undefined;
  /** Default: `OPENAI_API_KEY`. */
  apiKey?: string | undefined;
  /** Milliseconds per request. Default 120,000. */
  timeout?: number;
  /** Retries on 429 and 5xx. Default 2. */
  maxRetries?: number;
  temperature?: number;
}

function toWire(m: Message): ChatCompletionMessageParam {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      return { role: "user", content: m.content };
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content };
    default:
      return {
        role: "assistant",
        content: m.content === "" && m.toolCalls?.length ? null : m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: JSON.stringify(c.args) },
              })),
            }
          : {}),
      };
  }
}

/**
 * A model behind any OpenAI-compatible chat-completions endpoint (OpenAI, a local server, a
 * gateway), with tool calls, through the official `openai` client.
 *
 * @example
 * ```ts
 * const model = new OpenAiModel({ model: "gpt-4o-mini", baseURL: "http://127.0.0.1:8080/v1", apiKey: "…" });
 * ```
 */
export class OpenAiModel implements Model {
  readonly config: ModelConfig;
  readonly #options: OpenAiModelOptions;
  /** The SDK and its client, loaded at the first request (see {@link OpenAiModel.generate}). */
  #sdk: Promise<{ Sdk: typeof OpenAI; client: OpenAI }> | undefined;

  constructor(options: OpenAiModelOptions) {
    if (typeof options.model !== "string" || options.model.trim() === "") {
      throw new AgentError("INVALID_INPUT", "model: expected a model name", { path: ["model"] });
    }
    this.#options = options;
    this.config = {
      name: options.model,
      provider: "openai-compatible",
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const messages: ChatCompletionMessageParam[] = [];
    if (request.systemPrompt) messages.push({ role: "system", content: request.systemPrompt });
    for (const m of request.messages) messages.push(toWire(m));
    const tools: ChatCompletionTool[] = request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));

    // The SDK is loaded at the first request, not with the module: the CLI's commands that run
    // the scripted model (most of them) would otherwise each load it as they start.
    this.#sdk ??= import("openai")
      .then(({ default: Sdk }) => ({
        Sdk,
        client: new Sdk({
          ...(this.#options.baseURL !== undefined ? { baseURL: this.#options.baseURL } : {}),
          // The client refuses to start without a key; local servers usually ignore it.
          apiKey: this.#options.apiKey ?? process.env.OPENAI_API_KEY ?? "not-needed",
          timeout: this.#options.timeout ?? 120_000,
          maxRetries: this.#options.maxRetries ?? 2,
        }),
      }))
      .catch((error: unknown) => {
        throw new AgentError(
          "MODEL_ERROR",
          `${this.config.name}: the OpenAI client did not start: ${(error as Error).message}`,
          { cause: error },
        );
      });
    const { Sdk, client } = await this.#sdk;
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create(
        {
          model: this.config.name,
          messages,
          ...(tools.length > 0 ? { tools } : {}),
          ...(this.#options.temperature !== undefined
            ? { temperature: this.#options.temperature }
            : {}),
        },
        request.signal ? { signal: request.signal } : undefined,
      );
    } catch (error) {
      if (error instanceof Sdk.APIUserAbortError) {
        throw new AgentError("ABORTED", "generation cancelled", { cause: error });
      }
      const status = error instanceof Sdk.APIError && error.status ? ` (HTTP ${error.status})` : "";
      throw new AgentError(
        "MODEL_ERROR",
        `${this.config.name}: request failed${status}: ${(error as Error).message}`,
        { cause: error },
      );
    }

    const choice = completion?.choices?.[0];
    if (!choice?.message) {
      throw new AgentError(
        "MODEL_ERROR",
        `${this.config.name}: the answer has no choices[0].message`,
        {
          path: ["choices", 0, "message"],
        },
      );
    }
    const toolCalls: ToolCall[] = [];
    for (const [i, call] of (choice.message.tool_calls ?? []).entries()) {
      if (call.type !== "function") continue;
      let args: unknown;
      try {
        args = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
      } catch (error) {
        throw new AgentError(
          "MODEL_ERROR",
          `${this.config.name}: tool_calls[${i}].function.arguments is not valid JSON`,
          { path: ["tool_calls", i, "function", "arguments"], cause: error },
        );
      }
      if (args === null || typeof args !== "object" || Array.isArray(args)) {
        throw new AgentError(
          "MODEL_ERROR",
          `${this.config.name}: tool_calls[${i}].function.arguments must be a JSON object`,
          { path: ["tool_calls", i, "function", "arguments"] },
        );
      }
      toolCalls.push({
        id: call.id,
        name: call.function.name,
        args: args as Record<string, unknown>,
      });
    }
    const text = choice.message.content ?? "";
    const usage = completion.usage
      ? {
          prompt_tokens: completion.usage.prompt_tokens,
          completion_tokens: completion.usage.completion_tokens,
          total_tokens: completion.usage.total_tokens,
        }
      : estimated(request, text);
    return { text, toolCalls, usage };
  }
}

function estimated(request: ModelRequest, text: string) {
  const prompt_tokens = estimateMessageTokens(request.messages, request.systemPrompt);
  const completion_tokens = estimateTokens(text);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
