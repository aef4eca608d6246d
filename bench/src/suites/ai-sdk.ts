import { withHooks } from "@a3s-lab/hooks-ai-sdk";
import { HookEngine } from "@a3s-lab/hooks-core";
import { goals, makeRow, side } from "../row.js";
import { sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

/** A schema that accepts anything, in the Standard Schema shape the AI SDK takes. */
const anyInput = {
  "~standard": {
    version: 1 as const,
    vendor: "bench",
    validate: (value: unknown) => ({ value }),
  },
};

/** A tool call through `withHooks` against the tool's bare `execute`, no hook registered. */
export const aiSdkSuite: Suite = {
  id: "ai-sdk",
  title: "AI SDK adapter: a tool call through withHooks",
  async run({ profile }) {
    const execute = async (input: { city: string }, _options: unknown) => `sunny in ${input.city}`;
    // Hooks exist, for other events: the tool events find none.
    const engine = new HookEngine();
    engine.register({ event: "Stop", handler: () => undefined });
    const tools = withHooks({ weather: { inputSchema: anyInput, execute } }, engine, {
      sessionId: "bench",
    });
    const hooked = tools.weather.execute!;
    // A hook for another tool: every call builds and fires the tool events, none matches.
    const busy = new HookEngine();
    busy.register({ event: "PreToolUse", matcher: "shell", handler: () => undefined });
    const busyTools = withHooks({ weather: { inputSchema: anyInput, execute } }, busy, {
      sessionId: "bench",
    });
    const unmatched = busyTools.weather.execute!;
    const input = { city: "Paris" };
    const options = { toolCallId: "call-1", messages: [] };

    const samples = await sampleTasks(
      [
        { name: "bare", fn: () => execute(input, options), async: true },
        { name: "hooked", fn: () => hooked(input, options), async: true },
        { name: "unmatched", fn: () => unmatched(input, options), async: true },
      ],
      { ...profile.inProcess, batch: 500 },
    );
    return {
      rows: [
        makeRow({
          id: "adapter.ai-sdk.tool-call",
          what: "AI SDK tool call through `withHooks`, no hook registered",
          ours: side("`withHooks(tools).execute()`", summarize(samples.hooked!)),
          baseline: side("the tool's own `execute()`", summarize(samples.bare!)),
          goal: goals.overheadBelow(2000, "< 2 µs overhead"),
          smoke: profile.smoke,
          note: "Both awaited. With no hook for any tool event the adapter calls the tool directly (checked on every call, so a hook registered later governs the next one).",
        }),
        makeRow({
          id: "adapter.ai-sdk.tool-call.unmatched",
          what: "AI SDK tool call through `withHooks`, a PreToolUse hook for another tool",
          ours: side("`withHooks(tools).execute()`", summarize(samples.unmatched!)),
          baseline: side("the tool's own `execute()`", summarize(samples.bare!)),
          goal: goals.overheadBelow(1000, "≤ 1 µs overhead"),
          smoke: profile.smoke,
          note: "Both awaited. No matcher fits the tool, which the adapter asks the engine's compiled matchers with the tool's name and arguments before building any event; a predicate matcher, a matching hook or a `fired` listener takes core's runTool flow (PreToolUse and PostToolUse built, validated and fired).",
        }),
      ],
      pending: [],
    };
  },
};
