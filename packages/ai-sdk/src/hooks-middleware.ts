import {
  createEvent,
  type GenerateCall,
  type GenerateOutput,
  type GenerateStartEvent,
  type HookEngine,
  HookError,
  type HookResult,
  type ModelConfig,
  runGeneration,
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
  systemPrompt: string | undefined;
  tools: string[];
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

function signalOf(params: CallOptions): { signal?: AbortSignal } {
  return params.abortSignal ? { signal: params.abortSignal } : {};
}

function toolCallsOf(content: GenerateResult["content"]): ToolCall[] {
  return content.flatMap((p) =>
    p.type === "tool-call"
      ? [{ id: p.toolCallId, name: p.toolName, args: parseInput(p.input) }]
      : [],
  );
}

function outputOfContent(content: GenerateResult["content"]): GenerateOutput {
  return { text: textOf(content), toolCalls: toolCallsOf(content) };
}

/** `content` with `text` in place of its first text part (other parts stay). */
function withText(content: GenerateResult["content"], text: string): GenerateResult["content"] {
  let placed = false;
  const out: GenerateResult["content"] = [];
  for (const p of content) {
    if (p.type !== "text") out.push(p);
    else if (!placed) {
      placed = true;
      out.push({ ...p, text });
    }
  }
  if (!placed) out.unshift({ type: "text", text });
  return out;
}

const NO_USAGE: Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

function usageFrom(usage: GenerateOutput["usage"]): Usage {
  if (usage === undefined) return NO_USAGE;
  return {
    inputTokens: { ...NO_USAGE.inputTokens, total: usage.prompt_tokens },
    outputTokens: { ...NO_USAGE.outputTokens, total: usage.completion_tokens },
  };
}

function finishOf(output: GenerateOutput): GenerateResult["finishReason"] {
  return output.toolCalls?.length
    ? { unified: "tool-calls", raw: undefined }
    : { unified: "stop", raw: undefined };
}

/** A middleware's output as the model's result: `raw`'s other fields kept when there is one. */
function generatedFrom(output: GenerateOutput, raw: GenerateResult | undefined): GenerateResult {
  const calls = (output.toolCalls ?? []).map((c): GenerateResult["content"][number] => ({
    type: "tool-call",
    toolCallId: c.id,
    toolName: c.name,
    input: JSON.stringify(c.args),
  }));
  const content: GenerateResult["content"] = [
    ...(output.text !== "" ? [{ type: "text" as const, text: output.text }] : []),
    ...calls,
  ];
  if (raw !== undefined) return { ...raw, content };
  return { content, finishReason: finishOf(output), usage: usageFrom(output.usage), warnings: [] };
}

/** A middleware's output as the parts of a stream. */
function streamPartsOf(output: GenerateOutput): StreamPart[] {
  const parts: StreamPart[] = [];
  if (output.text !== "") {
    parts.push(
      { type: "text-start", id: "answer" },
      { type: "text-delta", id: "answer", delta: output.text },
      { type: "text-end", id: "answer" },
    );
  }
  for (const c of output.toolCalls ?? []) {
    parts.push({
      type: "tool-call",
      toolCallId: c.id,
      toolName: c.name,
      input: JSON.stringify(c.args),
    });
  }
  parts.push({ type: "finish", usage: usageFrom(output.usage), finishReason: finishOf(output) });
  return parts;
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
 * Between the two, the model call runs through the engine's `wrapGenerate` middleware
 * (`engine.use`): one may observe it, rewrite its call options, or answer without calling the
 * model (a generation from a cache), for `streamText` too, where the answer arrives as a stream.
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

  /** GenerateEnd of a stream: its text was sent already, so a rewrite is reported, not applied. */
  const finishStream = async (
    params: CallOptions,
    start: number,
    text: string,
    toolCalls: ToolCall[],
    usage: Usage | undefined,
  ) => {
    const end = await fireEnd(params, start, text, toolCalls, usage);
    if (end.modified && end.event.response.text !== text) {
      engine.warn("GenerateEnd: a hook rewrote response.text of a stream, which was already sent", {
        event: "GenerateEnd",
        eventId: end.event.eventId,
      });
    }
  };

  /** The call as `wrapGenerate` middleware see it. */
  const callOf = (params: CallOptions, model: Model, stream: boolean): GenerateCall => {
    const info = started.get(params);
    const systemPrompt = info?.systemPrompt ?? systemOf(params.prompt);
    return {
      sessionId: options.sessionId,
      model: info?.model ?? modelOf(model, params),
      prompt: info?.prompt ?? "",
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      tools: info?.tools ?? params.tools?.map((t) => t.name) ?? [],
      stream,
      params,
    };
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
      started.set(next, {
        prompt: result.event.prompt,
        model: event.model,
        systemPrompt: result.event.systemPrompt,
        tools: next.tools?.map((t) => t.name) ?? [],
      });
      return next;
    },
    async wrapGenerate({ doGenerate, params, model }) {
      const start = Date.now();
      let raw: GenerateResult | undefined;
      let fromModel: GenerateOutput | undefined;
      const output = await runGeneration(
        engine,
        callOf(params, model, false),
        async (call) => {
          raw =
            call.params === params
              ? await doGenerate()
              : await model.doGenerate(call.params as CallOptions);
          fromModel = outputOfContent(raw.content);
          return fromModel;
        },
        signalOf(params),
      );
      // The model's own result, or (answered or rewritten by a middleware) one made from it.
      const out = raw !== undefined && output === fromModel ? raw : generatedFrom(output, raw);
      const text = textOf(out.content);
      const end = await fireEnd(params, start, text, toolCallsOf(out.content), out.usage);
      const rewritten = end.event.response.text;
      if (!end.modified || rewritten === text) return out;
      return { ...out, content: withText(out.content, rewritten) };
    },
    async wrapStream({ doStream, params, model }) {
      const start = Date.now();
      let streamed: (value: StreamResult) => void = () => {};
      const modelStream = new Promise<StreamResult>((resolve) => {
        streamed = resolve;
      });
      let ended: (output: GenerateOutput) => void = () => {};
      let broke: (reason: unknown) => void = () => {};
      const end = new Promise<GenerateOutput>((resolve, reject) => {
        ended = resolve;
        broke = reject;
      });
      let chain: Promise<GenerateOutput> | undefined;
      let text = "";
      let usage: Usage | undefined;
      const toolCalls: ToolCall[] = [];
      const observe = (part: StreamPart) => {
        if (part.type === "text-delta") text += part.delta;
        else if (part.type === "tool-call") {
          toolCalls.push({
            id: part.toolCallId,
            name: part.toolName,
            args: parseInput(part.input),
          });
        } else if (part.type === "finish") usage = part.usage;
      };
      const finish = async () => {
        const output: GenerateOutput = { text, toolCalls };
        ended(output);
        if ((await chain) !== output) {
          engine.warn(
            "wrapGenerate: a middleware changed the output of a stream, which was already sent",
            {},
          );
        }
        await finishStream(params, start, text, toolCalls, usage);
      };
      // The parts the reader gets, watched. At their end the chain and GenerateEnd finish; when
      // the model's stream fails or the reader cancels it, the middleware's next() rejects with
      // that reason instead of waiting for ever.
      const watched = (source: ReadableStream<StreamPart>) => {
        const reader = source.getReader();
        return new ReadableStream<StreamPart>({
          async pull(controller) {
            let next: Awaited<ReturnType<typeof reader.read>>;
            try {
              next = await reader.read();
            } catch (error) {
              broke(error);
              controller.error(error);
              return;
            }
            if (next.done) {
              await finish();
              controller.close();
              return;
            }
            observe(next.value);
            controller.enqueue(next.value);
          },
          cancel(reason) {
            broke(reason ?? new Error("the stream was cancelled before its end"));
            return reader.cancel(reason);
          },
        });
      };
      chain = runGeneration(
        engine,
        callOf(params, model, true),
        async (call) => {
          const out =
            call.params === params
              ? await doStream()
              : await model.doStream(call.params as CallOptions);
          streamed({ ...out, stream: watched(out.stream) });
          return end;
        },
        signalOf(params),
      );
      // Its failure reaches the middleware through next(); nobody else awaits it after the race.
      chain.catch(() => {});
      const first = await Promise.race([
        modelStream.then((out) => ({ out })),
        chain.then((answer) => ({ answer })),
      ]);
      if ("out" in first) return first.out;
      // Answered without the model: the answer, as the stream the model would have sent.
      const answer = first.answer;
      const parts = streamPartsOf(answer);
      const stream = new ReadableStream<StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }).pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          async flush() {
            await finishStream(params, start, answer.text, answer.toolCalls ?? [], undefined);
          },
        }),
      );
      return { stream };
    },
  };
  return middleware;
}
