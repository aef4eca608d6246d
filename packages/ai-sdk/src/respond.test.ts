/**
 * An answer in place of a tool through the AI SDK tool wrapper, with the engine traced by
 * OpenTelemetry: a PreToolUse hook's `respond` and a `wrapToolCall` middleware's answer. The
 * tool's `execute` never runs, and the model reads the answer on its next call.
 */
import { HookEngine, respond } from "@a3s-lab/hooks-core";
import { HOOK_ATTRIBUTES, instrumentHooks } from "@a3s-lab/hooks-node/otel";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { scriptedModel } from "../test/fixtures/scripted-model.js";
import { withHooks } from "./with-hooks.js";

function setup() {
  const engine = new HookEngine();
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  instrumentHooks(engine, { tracer: provider.getTracer("test") });
  const execute = vi.fn(async () => ({ forecast: "live" }));
  const weather = tool({ inputSchema: z.object({ city: z.string() }), execute });
  const model = scriptedModel([{ tool: "weather", input: { city: "Paris" } }, { text: "done" }]);
  const tools = withHooks({ weather }, engine, { sessionId: "s1" });
  return { engine, spans, execute, model, tools };
}

/** The tool results the model read on its second call. */
function toolResults(model: ReturnType<typeof scriptedModel>) {
  const prompt = model.doGenerateCalls[1]?.prompt ?? model.doStreamCalls[1]?.prompt ?? [];
  return prompt.flatMap((m) =>
    m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [p.output] : [])) : [],
  );
}

describe.each([
  [
    "generateText",
    (s: ReturnType<typeof setup>) =>
      generateText({ model: s.model, tools: s.tools, stopWhen: stepCountIs(3), prompt: "?" }),
  ],
  [
    "streamText",
    async (s: ReturnType<typeof setup>) => {
      const run = streamText({
        model: s.model,
        tools: s.tools,
        stopWhen: stepCountIs(3),
        prompt: "?",
      });
      await run.consumeStream();
      return { text: await run.text };
    },
  ],
] as const)("an answer in place of the tool, through withHooks and %s", (_name, loop) => {
  it("a PreToolUse respond: the model reads it, execute never runs, the hook's span is the firing's child", async () => {
    const s = setup();
    s.engine.register({
      event: "PreToolUse",
      matcher: "weather",
      name: "forecast-cache",
      handler: () => respond("cached: rain"),
    });
    const result = await loop(s);
    expect(result.text).toBe("done");
    expect(s.execute).not.toHaveBeenCalled();
    expect(toolResults(s.model)).toEqual([{ type: "text", value: "cached: rain" }]);
    const finished = s.spans.getFinishedSpans();
    const firing = finished.find((x) => x.name === "hooks.fire PreToolUse")!;
    const hook = finished.find((x) => x.name === "hook forecast-cache")!;
    expect(hook.parentSpanContext?.spanId).toBe(firing.spanContext().spanId);
    expect(hook.attributes[HOOK_ATTRIBUTES.decision]).toBe("respond");
  });

  it("a wrapToolCall middleware's answer: the model reads it, execute never runs, PostToolUse is traced", async () => {
    const s = setup();
    s.engine.register({ event: "PostToolUse", name: "observer", handler: () => undefined });
    using _cache = s.engine.use({ name: "cache", wrapToolCall: () => ({ output: "from cache" }) });
    const result = await loop(s);
    expect(result.text).toBe("done");
    expect(s.execute).not.toHaveBeenCalled();
    expect(toolResults(s.model)).toEqual([{ type: "text", value: "from cache" }]);
    const finished = s.spans.getFinishedSpans();
    const post = finished.find((x) => x.name === "hooks.fire PostToolUse")!;
    const observer = finished.find((x) => x.name === "hook observer")!;
    expect(observer.parentSpanContext?.spanId).toBe(post.spanContext().spanId);
  });
});
