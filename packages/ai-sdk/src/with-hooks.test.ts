import { block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { generateText, jsonSchema, stepCountIs, streamText, type ToolSet, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { scriptedModel } from "../test/fixtures/scripted-model.js";
import { isBlockedOutput, withHooks } from "./with-hooks.js";

const weatherInput = z.object({ city: z.string(), days: z.number().int().min(1).max(7) });

function weatherTool(seen: unknown[] = []) {
  return tool({
    description: "Weather forecast",
    inputSchema: weatherInput,
    execute: async (input) => {
      seen.push(input);
      return { city: input.city, forecast: "sunny", days: input.days };
    },
  });
}

/** The tool results the model read on its second call. */
function toolResults(model: ReturnType<typeof scriptedModel>, call = 1) {
  const prompt = model.doGenerateCalls[call]?.prompt ?? model.doStreamCalls[call]?.prompt ?? [];
  return prompt.flatMap((m) =>
    m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [p.output] : [])) : [],
  );
}

/** One generateText loop over the hooked weather tool: a call, then the model's answer. */
function loop(
  model: ReturnType<typeof scriptedModel>,
  engine: HookEngine,
  weather: ToolSet[string],
  options: Parameters<typeof withHooks>[2] = { sessionId: "s1" },
) {
  return generateText({
    model,
    tools: withHooks({ weather }, engine, options),
    stopWhen: stepCountIs(3),
    prompt: "Weather?",
  });
}

const script = (input: Record<string, unknown>) =>
  scriptedModel([{ tool: "weather", input }, { text: "done" }]);

describe("withHooks in a generateText loop", () => {
  it("runs the tool untouched when no hook is registered", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    const result = await loop(model, engine, weatherTool(seen), { sessionId: "s1" });
    expect(seen).toEqual([{ city: "Paris", days: 2 }]);
    expect(result.text).toBe("done");
    expect(toolResults(model)).toEqual([
      { type: "json", value: { city: "Paris", forecast: "sunny", days: 2 } },
    ]);
  });

  it("gives the model a block as the tool's result, and the run goes on", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: "weather",
      handler: () => block("no weather on Sundays"),
    });
    const result = await loop(model, engine, weatherTool(seen), { sessionId: "s1" });
    expect(seen).toEqual([]);
    expect(result.text).toBe("done");
    const output = result.steps[0]?.toolResults[0]?.output;
    expect(isBlockedOutput(output)).toBe(true);
    expect(output).toEqual({ blocked: true, reason: "no weather on Sundays", by: "hook" });
    expect(toolResults(model)).toEqual([
      { type: "json", value: { blocked: true, reason: "no weather on Sundays", by: "hook" } },
    ]);
  });

  it("runs the tool with the arguments a hook rewrote, and fires every tool event", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    const events: string[] = [];
    engine.register({
      event: "PreToolUse",
      handler: (e) => {
        events.push(`${e.eventType}:${e.toolUseId}`);
        return modify({ args: { days: 5 } });
      },
    });
    engine.register({
      event: "PostToolUse",
      handler: (e) => {
        events.push(`${e.eventType}:${e.result.output}`);
      },
    });
    await loop(model, engine, weatherTool(seen), { sessionId: "s1" });
    expect(seen).toEqual([{ city: "Paris", days: 5 }]);
    expect(events).toEqual([
      "PreToolUse:call-0",
      'PostToolUse:{"city":"Paris","forecast":"sunny","days":5}',
    ]);
  });

  it("gives the model the output a PostToolUse hook rewrote", async () => {
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({
      event: "PostToolUse",
      handler: () => modify({ result: { output: "[redacted]" } }),
    });
    await loop(model, engine, weatherTool(), { sessionId: "s1" });
    expect(toolResults(model)).toEqual([{ type: "text", value: "[redacted]" }]);
  });

  it("gives the model a PostToolUse block's reason after the output, as Claude Code does", async () => {
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({ event: "PostToolUse", handler: () => block("days over 3 are guesses") });
    await loop(model, engine, weatherTool(), { sessionId: "s1" });
    expect(toolResults(model)).toEqual([
      {
        type: "text",
        value:
          '{"city":"Paris","forecast":"sunny","days":2}\n[hook feedback] days over 3 are guesses',
      },
    ]);
  });

  it("gives the model an engine middleware's answer in place of the tool, with no hook registered", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    using _cache = engine.use({
      name: "cache",
      wrapToolCall: (call) => ({ output: `cached forecast for ${call.args.city}` }),
    });
    await loop(model, engine, weatherTool(seen), { sessionId: "s1" });
    expect(seen).toEqual([]);
    expect(toolResults(model)).toEqual([{ type: "text", value: "cached forecast for Paris" }]);
  });

  it("gives the model the context hooks added, after the tool's output", async () => {
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: () => ({
        action: "continue",
        additionalContext: "forecasts past 3 days are guesses",
      }),
    });
    await loop(model, engine, weatherTool(), { sessionId: "s1" });
    expect(toolResults(model)).toEqual([
      {
        type: "text",
        value:
          '{"city":"Paris","forecast":"sunny","days":2}\n[hook context] forecasts past 3 days are guesses',
      },
    ]);
  });

  it("turns rewritten arguments the tool's schema rejects into a tool error naming the hook", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      name: "stretch-forecast",
      handler: () => modify({ args: { days: 30 } }),
    });
    const result = await loop(model, engine, weatherTool(seen), { sessionId: "s1" });
    expect(seen).toEqual([]);
    const [output] = toolResults(model);
    expect(output?.type).toBe("error-text");
    expect(String((output as { value: unknown }).value)).toMatch(
      /weather: the arguments hook "stretch-forecast" wrote do not fit the tool's input schema/,
    );
    expect(result.text).toBe("done");
  });

  it("fires PostToolUseFailure when the tool throws, and the SDK reports the tool error", async () => {
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    const failures: string[] = [];
    engine.register({ event: "PostToolUseFailure", handler: (e) => void failures.push(e.error) });
    const broken = tool({
      inputSchema: weatherInput,
      execute: async (): Promise<string> => {
        throw new Error("station offline");
      },
    });
    await loop(model, engine, broken);
    expect(failures).toEqual(["station offline"]);
    expect(toolResults(model)).toEqual([{ type: "error-text", value: "station offline" }]);
  });

  it("shows the model a block as text when the tool has its own toModelOutput", async () => {
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => block("closed") });
    const toModelOutput = vi.fn(() => ({ type: "text" as const, value: "forecast" }));
    await loop(model, engine, { ...weatherTool(), toModelOutput });
    expect(toModelOutput).not.toHaveBeenCalled();
    expect(toolResults(model)).toEqual([{ type: "text", value: "Blocked by a hook: closed" }]);
  });
});

describe("withHooks permission flow", () => {
  const run = async (
    engine: HookEngine,
    options: Parameters<typeof withHooks>[2],
    seen: unknown[],
  ) => {
    const model = script({ city: "Paris", days: 2 });
    await loop(model, engine, weatherTool(seen), options);
    return toolResults(model);
  };

  it("denies a call a PreToolUse hook asks about when nobody answers", async () => {
    const engine = new HookEngine();
    const fired: string[] = [];
    engine.register({
      event: "PreToolUse",
      handler: () => ({ action: "continue", permission: "ask" }),
    });
    for (const event of ["PermissionRequest", "PermissionGranted", "PermissionDenied"] as const) {
      engine.register({ event, handler: (e) => void fired.push(e.eventType) });
    }
    const seen: unknown[] = [];
    const results = await run(engine, { sessionId: "s1" }, seen);
    expect(seen).toEqual([]);
    expect(fired).toEqual(["PermissionRequest", "PermissionDenied"]);
    expect(results).toEqual([
      {
        type: "json",
        value: { blocked: true, reason: "denied by the default answer", by: "permission" },
      },
    ]);
  });

  it("asks the asker when the policy requires permission, with the arguments a PermissionRequest hook rewrote", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PermissionRequest", handler: () => modify({ args: { days: 1 } }) });
    const ask = vi.fn(() => "allow" as const);
    const seen: unknown[] = [];
    await run(
      engine,
      { sessionId: "s1", requirePermission: (name) => name === "weather", ask },
      seen,
    );
    // Core's question, whole: the AI SDK's toolCallId is its toolUseId.
    expect(ask).toHaveBeenCalledWith({
      sessionId: "s1",
      tool: "weather",
      args: { city: "Paris", days: 1 },
      reason: expect.any(String),
      toolUseId: "call-0",
    });
    expect(seen).toEqual([{ city: "Paris", days: 1 }]);
  });

  it("denies, and never runs the tool, when the asker throws", async () => {
    const engine = new HookEngine();
    const fired: string[] = [];
    for (const event of ["PermissionGranted", "PermissionDenied"] as const) {
      engine.register({ event, handler: (e) => void fired.push(`${e.eventType} ${e.reason}`) });
    }
    const ask = () => {
      throw new Error("the dialog closed");
    };
    const seen: unknown[] = [];
    expect(await run(engine, { sessionId: "s1", requirePermission: true, ask }, seen)).toEqual([
      {
        type: "json",
        value: {
          blocked: true,
          reason: "the answer failed (the dialog closed), so it is no",
          by: "permission",
        },
      },
    ]);
    expect(seen).toEqual([]);
    expect(fired).toEqual(["PermissionDenied the answer failed (the dialog closed), so it is no"]);
  });

  it("lets a PermissionRequest hook deny, and a PreToolUse allow waive the policy", async () => {
    const denying = new HookEngine();
    denying.register({ event: "PermissionRequest", handler: () => block("not today") });
    const seen: unknown[] = [];
    expect(await run(denying, { sessionId: "s1", requirePermission: true }, seen)).toEqual([
      { type: "json", value: { blocked: true, reason: "not today", by: "permission" } },
    ]);
    expect(seen).toEqual([]);

    const allowing = new HookEngine();
    allowing.register({
      event: "PreToolUse",
      handler: () => ({ action: "continue", permission: "allow" }),
    });
    await run(allowing, { sessionId: "s1", requirePermission: true }, seen);
    expect(seen).toEqual([{ city: "Paris", days: 2 }]);
  });
});

describe("withHooks in a streamText loop", () => {
  it("blocks a call and streams the model's answer to the block", async () => {
    const seen: unknown[] = [];
    const model = script({ city: "Paris", days: 2 });
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => block("streams are closed") });
    const result = streamText({
      model,
      tools: withHooks({ weather: weatherTool(seen) }, engine, { sessionId: "s1" }),
      stopWhen: stepCountIs(3),
      prompt: "Weather?",
    });
    expect(await result.text).toBe("done");
    expect(seen).toEqual([]);
    expect(toolResults(model)).toEqual([
      { type: "json", value: { blocked: true, reason: "streams are closed", by: "hook" } },
    ]);
  });
});

describe("withHooks when no hook is registered for a tool event", () => {
  const call = { toolCallId: "c1", messages: [] };

  it("lets a hook registered after wrapping govern the next call", async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine();
    const tools = withHooks({ weather: weatherTool(seen) }, engine, { sessionId: "s1" });
    expect(await tools.weather.execute?.({ city: "Oslo", days: 1 }, call)).toEqual({
      city: "Oslo",
      forecast: "sunny",
      days: 1,
    });
    engine.register({ event: "PostToolUseFailure", handler: () => undefined });
    engine.register({ event: "PreToolUse", handler: () => block("late, but in force") });
    expect(await tools.weather.execute?.({ city: "Oslo", days: 1 }, call)).toEqual({
      blocked: true,
      reason: "late, but in force",
      by: "hook",
    });
    expect(seen).toHaveLength(1);
  });

  it("still asks for permission when the policy requires it, even with hooks off", async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine({ enabled: false });
    const tools = withHooks({ weather: weatherTool(seen) }, engine, {
      sessionId: "s1",
      requirePermission: true,
    });
    expect(await tools.weather.execute?.({ city: "Oslo", days: 1 }, call)).toEqual({
      blocked: true,
      reason: "denied by the default answer",
      by: "permission",
    });
    expect(seen).toEqual([]);
  });
});

describe("withHooks when every tool hook is for other tools", () => {
  const call = { toolCallId: "c1", messages: [] };

  it("starts the tool in the same turn, building no event, when no matcher fits this tool", () => {
    const seen: unknown[] = [];
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", matcher: "Bash|Write", handler: () => block("no") });
    engine.register({
      event: "PostToolUse",
      matcher: { tool: "weather", pathPattern: "*.env" },
      handler: () => block("no"),
    });
    const tools = withHooks({ weather: weatherTool(seen) }, engine, { sessionId: "s1" });
    void tools.weather.execute?.({ city: "Oslo", days: 1 }, call);
    expect(seen).toEqual([{ city: "Oslo", days: 1 }]);
  });

  it("still runs the flow for a hook whose matcher fits, or is the author's own predicate", async () => {
    for (const matcher of ["weather", { tool: "weath*" }, () => true] as const) {
      const engine = new HookEngine();
      engine.register({ event: "PreToolUse", matcher: "Bash", handler: () => block("other") });
      engine.register({ event: "PreToolUse", matcher, handler: () => block("this one") });
      const tools = withHooks({ weather: weatherTool() }, engine, { sessionId: "s1" });
      expect(await tools.weather.execute?.({ city: "Oslo", days: 1 }, call)).toEqual({
        blocked: true,
        reason: "this one",
        by: "hook",
      });
    }
  });

  it("still fires the events when an audit listener wants every firing", async () => {
    const engine = new HookEngine({ auditLevel: "verbose" });
    engine.register({ event: "PreToolUse", matcher: "Bash", handler: () => undefined });
    const fired: string[] = [];
    engine.on("fired", (record) => fired.push(record.event));
    const tools = withHooks({ weather: weatherTool() }, engine, { sessionId: "s1" });
    await tools.weather.execute?.({ city: "Oslo", days: 1 }, call);
    expect(fired).toEqual(["PreToolUse", "PostToolUse"]);
  });
});

describe("withHooks input", () => {
  const listTool = () =>
    tool({
      inputSchema: jsonSchema<number[]>({ type: "array", items: { type: "number" } }),
      execute: async (input) => input.length,
    });
  const call = { toolCallId: "c1", messages: [] };

  it("runs a tool whose input is not an object as it is when no hook could see it", async () => {
    const tools = withHooks({ list: listTool() }, new HookEngine(), { sessionId: "s1" });
    expect(await tools.list.execute?.([1, 2, 3], call)).toBe(3);
  });

  it("refuses, naming the input, a non-object input that hooks would have to judge", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => undefined });
    const tools = withHooks({ list: listTool() }, engine, { sessionId: "s1" });
    await expect(tools.list.execute?.([1, 2, 3], call)).rejects.toMatchObject({
      code: "INVALID_EVENT",
      path: ["input"],
      message: "list: hooks need an object input, got an array",
    });
  });

  it("returns tools without execute as they are", () => {
    // A tool the host runs itself (or one awaiting client-side results).
    const declared = { description: "declared only", inputSchema: weatherInput };
    const wrapped = withHooks({ declared }, new HookEngine(), { sessionId: "s1" });
    expect(wrapped.declared).toBe(declared);
  });
});
