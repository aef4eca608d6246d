import { type AuditEvent, block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../test/fixtures/scripted-model.js";
import { GenerateBlockedError, hooksMiddleware } from "./hooks-middleware.js";
import { withHooks } from "./with-hooks.js";

const noop = (name: string) =>
  tool({
    description: name,
    inputSchema: jsonSchema<{ q?: string }>({
      type: "object",
      properties: { q: { type: "string" } },
    }),
    execute: async () => `${name} ran`,
  });

describe("hooksMiddleware with generateText", () => {
  it("fires GenerateStart with the prompt, system prompt, model and tools; rewrites reach the model", async () => {
    const inner = scriptedModel([{ text: "hello" }]);
    const engine = new HookEngine();
    const starts: unknown[] = [];
    engine.register({
      event: "GenerateStart",
      matcher: "scripted",
      handler: (e) => {
        starts.push({
          prompt: e.prompt,
          systemPrompt: e.systemPrompt,
          model: e.model,
          tools: e.tools,
        });
        return modify({
          prompt: "Be brief: hi",
          systemPrompt: "You are terse.",
          tools: ["search"],
        });
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    await generateText({
      model,
      system: "You are kind.",
      prompt: "hi",
      tools: { search: noop("search"), shell: noop("shell") },
    });
    expect(starts).toEqual([
      {
        prompt: "hi",
        systemPrompt: "You are kind.",
        model: { name: "scripted", provider: "mock" },
        tools: ["search", "shell"],
      },
    ]);
    const call = inner.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "Be brief: hi" }] },
    ]);
    expect(call.tools?.map((t) => t.name)).toEqual(["search"]);
  });

  it("rejects the call with GenerateBlockedError when a GenerateStart hook blocks, and never calls the model", async () => {
    const inner = scriptedModel([{ text: "hello" }]);
    const engine = new HookEngine();
    engine.register({ event: "GenerateStart", handler: () => block("over budget") });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    const error = await generateText({ model, prompt: "hi" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerateBlockedError);
    expect((error as GenerateBlockedError).reason).toBe("over budget");
    expect(inner.doGenerateCalls).toHaveLength(0);
  });

  it("fires GenerateEnd per step with the text, tool calls and usage; a rewrite of the text reaches the caller", async () => {
    const inner = scriptedModel([
      { tool: "search", input: { q: "cats" } },
      { text: "cats are great" },
    ]);
    const engine = new HookEngine();
    const ends: unknown[] = [];
    engine.register({
      event: "GenerateEnd",
      handler: (e) => {
        ends.push({
          prompt: e.prompt,
          text: e.response.text,
          toolCalls: e.response.toolCalls,
          usage: e.response.usage,
        });
        return e.response.text
          ? modify({ response: { text: "[checked] cats are great" } })
          : undefined;
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    const result = await generateText({
      model,
      prompt: "tell me about cats",
      tools: withHooks({ search: noop("search") }, engine, { sessionId: "s1" }),
      stopWhen: stepCountIs(3),
    });
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    expect(ends).toEqual([
      {
        prompt: "tell me about cats",
        text: "",
        toolCalls: [{ id: "call-0", name: "search", args: { q: "cats" } }],
        usage,
      },
      { prompt: "tell me about cats", text: "cats are great", toolCalls: [], usage },
    ]);
    expect(result.text).toBe("[checked] cats are great");
  });
});

describe("hooksMiddleware with streamText", () => {
  it("fires GenerateStart and GenerateEnd around a streamed multi-step run", async () => {
    const inner = scriptedModel([
      { tool: "search", input: { q: "dogs" } },
      { text: "dogs are loyal" },
    ]);
    const engine = new HookEngine();
    const fired: string[] = [];
    engine.register({
      event: "GenerateStart",
      handler: (e) => {
        fired.push(`start:${e.prompt}`);
        return modify({ prompt: "tell me about dogs, briefly" });
      },
    });
    engine.register({
      event: "GenerateEnd",
      handler: (e) => {
        fired.push(`end:${e.response.text}:${e.response.toolCalls.map((c) => c.name).join()}`);
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    const result = streamText({
      model,
      prompt: "tell me about dogs",
      tools: withHooks({ search: noop("search") }, engine, { sessionId: "s1" }),
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe("dogs are loyal");
    expect(fired).toEqual([
      "start:tell me about dogs",
      "end::search",
      "start:tell me about dogs",
      "end:dogs are loyal:",
    ]);
    for (const call of inner.doStreamCalls) {
      const user = call.prompt.find((m) => m.role === "user");
      expect(user?.content).toEqual([{ type: "text", text: "tell me about dogs, briefly" }]);
    }
  });

  it("reports a rewrite of text that has already streamed instead of pretending to apply it", async () => {
    const inner = scriptedModel([{ text: "streamed words" }]);
    const engine = new HookEngine();
    const warnings: string[] = [];
    engine.onAudit((record: AuditEvent) => {
      if (record.type === "warning") warnings.push(record.message);
    });
    engine.register({
      event: "GenerateEnd",
      handler: () => modify({ response: { text: "other" } }),
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: hooksMiddleware(engine, { sessionId: "s1" }),
    });
    const result = streamText({ model, prompt: "go" });
    expect(await result.text).toBe("streamed words");
    expect(warnings).toEqual([
      "GenerateEnd: a hook rewrote response.text of a stream, which was already sent",
    ]);
  });
});
