import {
  createEvent,
  type GenerateStartEvent,
  type HookEngine,
  HookError,
  type HookResult,
  type ModelConfig,
  type ToolCall,
} from "@a3s-lab/hooks-core";
import type { LanguageModelMiddleware } from "ai";
import { checkOptions, is } from "./check-options.js";

type Middleware = Required<
  Pick<LanguageModelMiddleware, "transformParams" | "wrapGenerate" | "wrapStream">
> &
  LanguageModelMiddleware;
type CallOptions = Parameters<Middleware["transformParams"]>[0]["params"];
type Model = Parameters<Middleware["transformParams"]>[0]["model"];
type Prompt = CallOptions["prompt"];
type GenerateResult = Awaited<ReturnType<Middleware["wrapGenerate"]>>;
type StreamResult = Awaited<ReturnType<Middleware["wrapStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;
type Usage = GenerateResult["usage"];

/** Options of {@link hooksMiddleware}. */
export interface HooksMiddlewareOptions {
  /** The session the generate events belong to (their `sessionId`). */
  sessionId: string;
  /** Added to every generate event's `metadata`. */
  metadata?: Record<string, unknown>;
}

/** A model call a GenerateStart hook blocked. */
export class GenerateBlockedError extends HookError {
  override name = "GenerateBlockedError";
  /** The winning block's reason. */
  readonly reason: string;
  constructor(result: HookResult) {
    const reason = result.reason ?? "blocked by hook";
    super("BLOCKED", `the model call was blocked by a hook: ${reason}`, {
      details: { hookId: result.blockedBy },
    });
    this.reason = reason;
  }
}

/** What GenerateStart left, handed from `transformParams` to the wrap that runs the call. */
interface Started {
  prompt: string;
  model: ModelConfig;
}

function textOf(parts: readonly { type: string; text?: string }[]): string {
  let text = "";
  for (const part of parts) if (part.type === "text") text += part.text ?? "";
  return text;
}

function lastUserIndex(prompt: Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]!.role === "user") return i;
  return -1;
}

function systemOf(prompt: Prompt): string | undefined {
  const parts = prompt.flatMap((m) => (m.role === "system" ? [m.content] : []));
  return parts.length > 0 ? parts.join("\n") : undefined;
}

function modelOf(model: Model, params: CallOptions): ModelConfig {
  return {
    name: model.modelId,
    provider: model.provider,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.maxOutputTokens !== undefined ? { maxTokens: params.maxOutputTokens } : {}),
  };
}

/** Apply what GenerateStart hooks changed to the model call. */
function applyStart(params: CallOptions, before: GenerateStartEvent, after: GenerateStartEvent) {
  let prompt = params.prompt;
  if (after.systemPrompt !== before.systemPrompt) {
    prompt = prompt.filter((m) => m.role !== "system");
    if (after.systemPrompt) prompt = [{ role: "system", content: after.systemPrompt }, ...prompt];
  }
  if (after.prompt !== before.prompt) {
    const at = lastUserIndex(prompt);
    const text = { type: "text" as const, text: after.prompt };
    if (at < 0) prompt = [...prompt, { role: "user", content: [text] }];
    else {
      const user = prompt[at] as Extract<Prompt[number], { role: "user" }>;
      // Files the user attached stay; only the text is replaced.
      const content = [text, ...user.content.filter((p) => p.type !== "text")];
      prompt = prompt.map((m, i) => (i === at ? { ...user, content } : m));
    }
  }
  let tools = params.tools;
  if (after.tools !== before.tools && tools) {
    // Hooks can take tools away, never add ones the host did not offer.
    const kept = new Set(after.tools);
    tools = tools.filter((t) => kept.has(t.name));
  }
  return { ...params, prompt, ...(tools !== undefined ? { tools } : {}) };
}

function parseInput(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return { input: value };
  } catch {
    return { input };
  }
}

function usageOf(usage: Usage | undefined) {
  const prompt = usage?.inputTokens?.total ?? 0;
  const completion = usage?.outputTokens?.total ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

/**
 * A language-model middleware (for `wrapLanguageModel`) that fires GenerateStart before each
 * model call and GenerateEnd after it, streaming included. GenerateStart hooks may rewrite the
 * prompt (the text of the last user message), the system prompt, and the tools offered (they
 * can take tools away, not add them); a block rejects the call with a
 * {@link GenerateBlockedError}. GenerateEnd hooks may rewrite `response.text` of a
 * `generateText` call; in a stream the text has already reached the reader when GenerateEnd
 * fires, so there the hooks observe only, and a rewrite is reported in the audit stream.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai("gpt-4o"), middleware: hooksMiddleware(engine, { sessionId: "s1" }) });
 * ```
 */
export function hooksMiddleware(
  engine: HookEngine,
  options: HooksMiddlewareOptions,
): LanguageModelMiddleware {
  checkOptions(options, {
    sessionId: { check: is.string, expected: "a string", required: true },
    metadata: { check: is.object, expected: "an object" },
  });
  const base = {
    sessionId: options.sessionId,
    ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
  };
  const started = new WeakMap<CallOptions, Started>();

  const fireEnd = (
    params: CallOptions,
    start: number,
    text: string,
    toolCalls: ToolCall[],
    usage: Usage | undefined,
  ) => {
    const info = started.get(params);
    return engine.fire(
      createEvent("GenerateEnd", {
        ...base,
        prompt: info?.prompt ?? "",
        model: info?.model ?? { name: "unknown" },
        response: {
          text,
          toolCalls,
          usage: usageOf(usage),
          duration: Math.max(0, Date.now() - start),
        },
      }),
      params.abortSignal ? { signal: params.abortSignal } : {},
    );
  };

  const middleware: Middleware = {
    specificationVersion: "v3",
    async transformParams({ params, model }) {
      const at = lastUserIndex(params.prompt);
      const user = params.prompt[at] as Extract<Prompt[number], { role: "user" }> | undefined;
      const systemPrompt = systemOf(params.prompt);
      const event = createEvent("GenerateStart", {
        ...base,
        prompt: user ? textOf(user.content) : "",
        ...(systemPrompt !== undefined ? { systemPrompt } : {}),
        model: modelOf(model, params),
        tools: params.tools?.map((t) => t.name) ?? [],
      });
      const result = await engine.fire(
        event,
        params.abortSignal ? { signal: params.abortSignal } : {},
      );
      if (result.action === "block") throw new GenerateBlockedError(result);
      const next = result.modified ? applyStart(params, event, result.event) : { ...params };
      started.set(next, { prompt: result.event.prompt, model: event.model });
      return next;
    },
    async wrapGenerate({ doGenerate, params }) {
      const start = Date.now();
      const out = await doGenerate();
      const text = textOf(out.content);
      const toolCalls = out.content.flatMap((p) =>
        p.type === "tool-call"
          ? [{ id: p.toolCallId, name: p.toolName, args: parseInput(p.input) }]
          : [],
      );
      const end = await fireEnd(params, start, text, toolCalls, out.usage);
      const rewritten = end.event.response.text;
      if (!end.modified || rewritten === text) return out;
      // The rewritten text takes the place of the first text part; other parts stay.
      let placed = false;
      const content: GenerateResult["content"] = [];
      for (const p of out.content) {
        if (p.type !== "text") content.push(p);
        else if (!placed) {
          placed = true;
          content.push({ ...p, text: rewritten });
        }
      }
      if (!placed) content.unshift({ type: "text", text: rewritten });
      return { ...out, content };
    },
    async wrapStream({ doStream, params }) {
      const start = Date.now();
      const out = await doStream();
      let text = "";
      let usage: Usage | undefined;
      const toolCalls: ToolCall[] = [];
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          else if (part.type === "tool-call") {
            toolCalls.push({
              id: part.toolCallId,
              name: part.toolName,
              args: parseInput(part.input),
            });
          } else if (part.type === "finish") usage = part.usage;
          controller.enqueue(part);
        },
        async flush() {
          const end = await fireEnd(params, start, text, toolCalls, usage);
          if (end.modified && end.event.response.text !== text) {
            engine.warn(
              "GenerateEnd: a hook rewrote response.text of a stream, which was already sent",
              {
                event: "GenerateEnd",
                eventId: end.event.eventId,
              },
            );
          }
        },
      });
      return { ...out, stream: out.stream.pipeThrough(watch) };
    },
  };
  return middleware;
}
