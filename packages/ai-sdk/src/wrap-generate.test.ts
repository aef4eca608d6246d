/**
 * The engine's `wrapGenerate` middleware around the AI SDK's model calls, through
 * `hooksMiddleware`: observe, rewrite the call, or answer a generation without the model, for
 * `generateText` and `streamText`. The model is the AI SDK's own `MockLanguageModelV3`.
 */
import { type GenerateOutput, HookEngine } from "@a3s-lab/hooks-core";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { hooksMiddleware } from "./hooks-middleware.js";

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function mockModel() {
  return new MockLanguageModelV3({
    modelId: "mock-1",
    doGenerate: async () => ({
      content: [{ type: "text", text: "from the model" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: convertArrayToReadableStream([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "from " },
        { type: "text-delta", id: "t", delta: "the model" },
        { type: "text-end", id: "t" },
        { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
      ]),
    }),
  });
}

function setup() {
  const engine = new HookEngine();
  const inner = mockModel();
  const model = wrapLanguageModel({
    model: inner,
    middleware: hooksMiddleware(engine, { sessionId: "s1" }),
  });
  const ends: string[] = [];
  engine.register({ event: "GenerateEnd", handler: (e) => void ends.push(e.response.text) });
  return { engine, inner, model, ends };
}

const run = {
  generateText: async (model: ReturnType<typeof setup>["model"]) =>
    (await generateText({ model, prompt: "hi", temperature: 0.1 })).text,
  streamText: async (model: ReturnType<typeof setup>["model"]) => {
    const result = streamText({ model, prompt: "hi", temperature: 0.1 });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    return text;
  },
};

describe.each(Object.entries(run))("wrapGenerate through hooksMiddleware and %s", (name, call) => {
  const stream = name === "streamText";
  const modelCalls = (inner: MockLanguageModelV3) =>
    stream ? inner.doStreamCalls : inner.doGenerateCalls;

  it("answers a generation from a cache: the model is not called; GenerateEnd sees the answer", async () => {
    const s = setup();
    const cache = new Map([["hi", "from the cache"]]);
    using _cache = s.engine.use({
      name: "cache",
      wrapGenerate: (c, _ctx, next) => {
        const hit = cache.get(c.prompt);
        return hit !== undefined ? { text: hit } : next();
      },
    });
    expect(await call(s.model)).toBe("from the cache");
    expect(modelCalls(s.inner)).toHaveLength(0);
    expect(s.ends).toEqual(["from the cache"]);
  });

  it("observes: next() gives the model's whole output (a stream's once it has ended)", async () => {
    const s = setup();
    const seen: { stream: boolean; model: string; output: GenerateOutput }[] = [];
    using _observe = s.engine.use({
      name: "observe",
      wrapGenerate: async (c, _ctx, next) => {
        const output = await next();
        seen.push({ stream: c.stream, model: c.model.name, output });
        return output;
      },
    });
    expect(await call(s.model)).toBe("from the model");
    expect(modelCalls(s.inner)).toHaveLength(1);
    expect(seen).toEqual([
      { stream, model: "mock-1", output: { text: "from the model", toolCalls: [] } },
    ]);
    expect(s.ends).toEqual(["from the model"]);
  });

  it("rewrites the call: the model gets the params next() was given", async () => {
    const s = setup();
    using _rewrite = s.engine.use({
      name: "cool-down",
      wrapGenerate: (c, _ctx, next) =>
        next({ ...c, params: { ...(c.params as object), temperature: 0 } }),
    });
    expect(await call(s.model)).toBe("from the model");
    expect(modelCalls(s.inner).map((c) => c.temperature)).toEqual([0]);
  });
});

describe("wrapGenerate rewriting the output", () => {
  it("replaces the text of a generateText answer", async () => {
    const s = setup();
    using _shout = s.engine.use({
      name: "shout",
      wrapGenerate: async (_c, _ctx, next) => {
        const out = await next();
        return { ...out, text: out.text.toUpperCase() };
      },
    });
    expect(await run.generateText(s.model)).toBe("FROM THE MODEL");
    expect(s.ends).toEqual(["FROM THE MODEL"]);
  });

  it("in a stream, the text was sent already: the change is reported, not applied", async () => {
    const s = setup();
    const warnings: string[] = [];
    s.engine.on("warning", (w) => void warnings.push(w.message));
    using _shout = s.engine.use({
      name: "shout",
      wrapGenerate: async (_c, _ctx, next) => {
        const out = await next();
        return { ...out, text: out.text.toUpperCase() };
      },
    });
    expect(await run.streamText(s.model)).toBe("from the model");
    expect(warnings).toEqual([
      "wrapGenerate: a middleware changed the output of a stream, which was already sent",
    ]);
  });
});

describe("wrapGenerate around a stream that does not end well", () => {
  it("rejects next() with the model stream's error, instead of waiting for ever", async () => {
    const engine = new HookEngine();
    const failure = new Error("the model's connection dropped");
    const inner = new MockLanguageModelV3({
      modelId: "mock-1",
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "half" });
            controller.error(failure);
          },
        }),
      }),
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    const settled: unknown[] = [];
    using _observe = engine.use({
      name: "observe",
      wrapGenerate: async (_c, _ctx, next) => {
        try {
          return await next();
        } catch (error) {
          settled.push(error);
          throw error;
        }
      },
    });
    const result = streamText({ model, prompt: "hi", onError: () => {} });
    const read = async () => {
      for await (const _delta of result.textStream);
    };
    await expect(read()).rejects.toBe(failure);
    expect(settled).toEqual([failure]);
  });

  it("rejects next() when the reader cancels the stream before its end", async () => {
    const engine = new HookEngine();
    const inner = new MockLanguageModelV3({
      modelId: "mock-1",
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "first" });
          },
        }),
      }),
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    let outcome: Promise<unknown> = Promise.resolve();
    using _observe = engine.use({
      name: "observe",
      wrapGenerate: (_c, _ctx, next) => {
        const output = next();
        outcome = output.then(
          () => "ended",
          (error: Error) => `rejected: ${error.message}`,
        );
        return output;
      },
    });
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: "text-start" });
    await reader.cancel(new Error("the reader went away"));
    expect(await outcome).toBe("rejected: the reader went away");
  });
});
