import { createAgentSdkHook } from "@a3s-lab/hooks-claude-agent-sdk";
import { HookEngine } from "@a3s-lab/hooks-core";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, side } from "../row.js";
import { sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

type Callback = ReturnType<typeof createAgentSdkHook>;
type Input = Parameters<Callback>[0];

/** A PreToolUse callback through the bridge, no hook registered, against a bare callback. */
export const claudeAgentSdkSuite: Suite = {
  id: "claude-agent-sdk",
  title: "Claude Agent SDK bridge: a PreToolUse callback",
  async run({ profile }) {
    // Hooks exist, for other events: PreToolUse finds none.
    const engine = new HookEngine();
    engine.register({ event: "Stop", handler: () => undefined });
    const bridged = createAgentSdkHook(engine);
    // What a session's own do-nothing hook is: an async callback answering `{}`.
    const bare: Callback = async () => ({});
    const input: Input = {
      hook_event_name: "PreToolUse",
      session_id: "bench",
      transcript_path: "/tmp/bench.jsonl",
      cwd: "/tmp",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_bench",
    };
    const options = { signal: new AbortController().signal };
    for (const [name, callback] of [
      ["bare", bare],
      ["bridged", bridged],
    ] as const) {
      const answer = await callback(input, "toolu_bench", options);
      if (Object.keys(answer).length !== 0) {
        throw new BenchError("TASK_FAILED", `${name}: answered ${JSON.stringify(answer)}, not {}`);
      }
    }

    const samples = await sampleTasks(
      [
        { name: "bare", fn: () => bare(input, "toolu_bench", options), async: true },
        { name: "bridged", fn: () => bridged(input, "toolu_bench", options), async: true },
      ],
      { ...profile.inProcess, batch: 500 },
    );
    return {
      rows: [
        makeRow({
          id: "adapter.claude-agent-sdk.pre-tool-use",
          what: "Claude Agent SDK PreToolUse callback through `toAgentSdkHooks`, no hook registered",
          ours: side("the bridge's callback", summarize(samples.bridged!)),
          baseline: side("an async callback answering `{}`", summarize(samples.bare!)),
          goal: goals.overheadBelow(2000, "< 2 µs overhead"),
          smoke: profile.smoke,
          note: "Both awaited. With no hook for the event the bridge answers `{}` before it builds an event.",
        }),
      ],
      pending: [],
    };
  },
};
