import { describe, expect, it, vi } from "vitest";
import { runGeneration } from "./generation.js";
import { HookEngine } from "./hook-engine.js";
import type { GenerateCall, GenerateOutput } from "./middleware.js";

const call: GenerateCall = {
  sessionId: "s1",
  model: { name: "mock" },
  prompt: "hi",
  tools: [],
  stream: false,
  params: { temperature: 0 },
};

describe("runGeneration", () => {
  it("calls the model as it is when no middleware wraps generations", async () => {
    const engine = new HookEngine();
    using _fire = engine.use({ name: "fire-only", wrapFire: (_e, _c, next) => next() });
    const generate = vi.fn(async (_c: GenerateCall) => ({ text: "model" }));
    expect(await runGeneration(engine, call, generate)).toEqual({ text: "model" });
    expect(generate).toHaveBeenCalledWith(call);
  });

  it("lets a middleware observe, rewrite the call, or answer without the model", async () => {
    const engine = new HookEngine();
    const seen: GenerateOutput[] = [];
    using _observe = engine.use({
      name: "observe",
      priority: -1,
      wrapGenerate: async (_c, _ctx, next) => {
        const out = await next();
        seen.push(out);
        return out;
      },
    });
    using _rewrite = engine.use({
      name: "rewrite",
      wrapGenerate: (c, _ctx, next) => next({ ...c, params: { temperature: 1 } }),
    });
    const generate = vi.fn(async (c: GenerateCall) => ({ text: JSON.stringify(c.params) }));
    expect(await runGeneration(engine, call, generate)).toEqual({ text: '{"temperature":1}' });
    expect(seen).toEqual([{ text: '{"temperature":1}' }]);

    using _cache = engine.use({
      name: "cache",
      priority: -2,
      wrapGenerate: () => ({ text: "cached", toolCalls: [{ id: "c1", name: "t", args: {} }] }),
    });
    generate.mockClear();
    expect(await runGeneration(engine, call, generate)).toEqual({
      text: "cached",
      toolCalls: [{ id: "c1", name: "t", args: {} }],
    });
    expect(generate).not.toHaveBeenCalled();
  });

  it("refuses a rewrite that changes the session or drops params, naming the field", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const warnings: string[] = [];
    engine.on("warning", (w) => void warnings.push(w.message));
    using _bad = engine.use({
      name: "bad",
      wrapGenerate: (c, _ctx, next) => next({ ...c, sessionId: "other" }),
    });
    const generate = vi.fn(async () => ({ text: "model" }));
    // Fail open (the default): as if it were not installed, and a warning says why.
    expect(await runGeneration(engine, call, generate)).toEqual({ text: "model" });
    expect(warnings.join("\n")).toMatch(/middleware bad: next\(call\)\.sessionId: must stay s1/);
  });

  it("a fail-closed middleware whose answer is not an output stops the call", async () => {
    const engine = new HookEngine();
    using _bad = engine.use({
      name: "strict",
      failBehavior: "block",
      wrapGenerate: () => ({ txt: "typo" }) as never,
    });
    const generate = vi.fn(async () => ({ text: "model" }));
    const error = await runGeneration(engine, call, generate).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "BLOCKED" });
    expect(String((error as Error).message)).toMatch(
      /wrapGenerate's answer\.text: expected a string/,
    );
    expect(generate).not.toHaveBeenCalled();
  });
});
