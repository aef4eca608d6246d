import { HookError } from "@a3s-lab/hooks-core";
import { clipText, isLoopbackHost } from "@a3s-lab/hooks-core/internal";
import * as z from "zod";
import { readCapped } from "../read-capped.js";
import type { HookModelClient, ModelMessage, ModelReply, ModelRequest } from "./model-client.js";

/** The largest chat-completions response body read, in bytes; past it the request is aborted. */
export const MAX_MODEL_RESPONSE_BYTES = 1_048_576;

/** The most tool calls one model reply may ask for. */
export const MAX_TOOL_CALLS_PER_REPLY = 16;

/** Options of {@link openAIModelClient}. */
export interface OpenAIModelClientOptions {
  /** The provider's API root, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as a bearer token; never written into errors. */
  apiKey?: string | undefined;
  /** The model for hooks that set none. */
  defaultModel?: string | undefined;
  /** For tests and proxies: the fetch to call. Default: the global one. */
  fetch?: typeof fetch;
}

/** `http:` only to this machine, so an API key never crosses a network in clear text. */
function checkBaseUrl(raw: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HookError("INVALID_CONFIG", `${variable}: expected an http(s) URL`, {
      path: [variable],
    });
  }
  if (url.username || url.password) {
    throw new HookError(
      "INVALID_CONFIG",
      `${variable}: credentials in the URL are refused; put the key in A3S_HOOKS_MODEL_API_KEY`,
      { path: [variable] },
    );
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new HookError(
      "INVALID_CONFIG",
      `${variable}: expected https://, or http:// to this machine (127.0.0.1, localhost, [::1]); got ${url.protocol}//${url.host}`,
      { path: [variable] },
    );
  }
  return url;
}

// Built on the first reply, not at import: the CLI loads this module on every start.
let replySchema: ReturnType<typeof buildCompletionSchema> | undefined;
const completionSchema = () => (replySchema ??= buildCompletionSchema());

function buildCompletionSchema() {
  const toolCallSchema = z.object({
    id: z.string().max(256),
    type: z.literal("function").optional(),
    function: z.object({ name: z.string().max(256), arguments: z.string() }),
  });
  return z.object({
    choices: z
      .array(
        z.object({
          message: z.object({
            content: z.string().nullish(),
            tool_calls: z.array(toolCallSchema).max(MAX_TOOL_CALLS_PER_REPLY).nullish(),
          }),
        }),
      )
      .min(1),
  });
}

function toWire(m: ModelMessage): Record<string, unknown> {
  switch (m.role) {
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    case "assistant":
      return m.toolCalls?.length
        ? {
            role: "assistant",
            content: m.content === "" ? null : m.content,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: "assistant", content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

/** The provider's own error message, if the body carries one, with the key cut out. */
function providerMessage(body: string | undefined, apiKey: string | undefined): string {
  if (!body) return "";
  let message: unknown;
  try {
    message = (JSON.parse(body) as { error?: { message?: unknown } })?.error?.message;
  } catch {
    return "";
  }
  if (typeof message !== "string") return "";
  const clean = apiKey ? message.split(apiKey).join("[redacted]") : message;
  return `: ${clipText(clean.replace(/\s+/g, " ").trim(), 300)}`;
}

function aborted(signal: AbortSignal, cause: unknown): HookError {
  return HookError.is(signal.reason)
    ? signal.reason
    : new HookError("ABORTED", "the model call was cancelled", { cause });
}

/**
 * An OpenAI-compatible chat-completions provider (OpenAI, a gateway, a local server) as a
 * {@link HookModelClient}, over `fetch`: one request per call, no retries (the hook's
 * timeout bounds the whole call), the response body capped at {@link MAX_MODEL_RESPONSE_BYTES}.
 * The API key is sent only as a bearer token and never appears in an error.
 *
 * @example
 * ```ts
 * const client = openAIModelClient({ baseUrl: "http://127.0.0.1:8080/v1", defaultModel: "local" });
 * ```
 */
export function openAIModelClient(options: OpenAIModelClientOptions): HookModelClient {
  const base = checkBaseUrl(options.baseUrl, "baseUrl");
  const endpoint = `${base.href.replace(/\/+$/, "")}/chat/completions`;
  const where = base.origin;
  const { apiKey } = options;
  const doFetch = options.fetch ?? fetch;
  return {
    ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
    async complete(request: ModelRequest): Promise<ModelReply> {
      const { signal } = request;
      if (signal.aborted) throw aborted(signal, signal.reason);
      const body = {
        model: request.model ?? options.defaultModel,
        messages: request.messages.map(toWire),
        ...(request.tools?.length
          ? {
              tools: request.tools.map((t) => ({
                type: "function",
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
      };
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
          redirect: "error",
        });
      } catch (error) {
        if (signal.aborted) throw aborted(signal, error);
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        throw new HookError(
          "UNAVAILABLE",
          `could not reach the model provider at ${where}${typeof code === "string" ? ` (${code})` : ""}`,
          { details: { provider: where } },
        );
      }
      let answer: { text: string; truncated: boolean };
      try {
        answer = await readCapped(response.body, MAX_MODEL_RESPONSE_BYTES);
      } catch (error) {
        if (signal.aborted) throw aborted(signal, error);
        throw new HookError(
          "UNAVAILABLE",
          `the model provider at ${where} closed the connection mid-answer`,
          { details: { provider: where } },
        );
      }
      const text = answer.truncated ? undefined : answer.text;
      if (!response.ok) {
        const refused = response.status === 401 || response.status === 403;
        throw new HookError(
          refused ? "UNAUTHENTICATED" : response.status >= 500 ? "UNAVAILABLE" : "HANDLER_FAILED",
          `the model provider at ${where} answered HTTP ${response.status}${refused ? " (check the API key)" : providerMessage(text, apiKey)}`,
          { details: { provider: where, status: response.status } },
        );
      }
      if (text === undefined) {
        throw new HookError(
          "INVALID_OUTPUT",
          `the model provider's answer is over ${MAX_MODEL_RESPONSE_BYTES} bytes; it was not read`,
          { details: { provider: where, limit: MAX_MODEL_RESPONSE_BYTES } },
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new HookError("INVALID_OUTPUT", "the model provider's answer is not JSON", {
          details: { provider: where },
        });
      }
      const parsed = completionSchema().safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HookError(
          "INVALID_OUTPUT",
          `the model provider's answer is not a chat completion (${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"})`,
          { details: { provider: where } },
        );
      }
      const message = parsed.data.choices[0]!.message;
      const toolCalls = (message.tool_calls ?? []).map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: c.function.arguments,
      }));
      return { text: message.content ?? "", ...(toolCalls.length ? { toolCalls } : {}) };
    },
  };
}

/**
 * The default model client, configured by the environment, or undefined when
 * `A3S_HOOKS_MODEL` is not set (then `prompt` and `agent` hooks are reported at load time):
 *
 * - `A3S_HOOKS_MODEL`: the model name for hooks that set no `model`; required
 * - `A3S_HOOKS_MODEL_BASE_URL`, else `OPENAI_BASE_URL`, else `https://api.openai.com/v1`:
 *   `https://`, or `http://` to this machine only
 * - `A3S_HOOKS_MODEL_API_KEY`, else `OPENAI_API_KEY`: sent as a bearer token
 *
 * Throws `INVALID_CONFIG` naming the variable for a base URL it refuses.
 *
 * @example
 * ```ts
 * const modelClient = modelClientFromEnv(process.env);
 * ```
 */
export function modelClientFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): HookModelClient | undefined {
  const model = env.A3S_HOOKS_MODEL?.trim();
  if (!model) return undefined;
  const own = env.A3S_HOOKS_MODEL_BASE_URL?.trim();
  const openai = env.OPENAI_BASE_URL?.trim();
  const variable = own ? "A3S_HOOKS_MODEL_BASE_URL" : openai ? "OPENAI_BASE_URL" : "default";
  const baseUrl = own || openai || "https://api.openai.com/v1";
  checkBaseUrl(baseUrl, variable);
  const apiKey = env.A3S_HOOKS_MODEL_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  return openAIModelClient({ baseUrl, apiKey, defaultModel: model });
}
