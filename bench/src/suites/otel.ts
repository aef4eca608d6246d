import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { instrumentHooks } from "@a3s-lab/hooks-node/otel";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, side } from "../row.js";
import { sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

/**
 * What OpenTelemetry costs a `fire()` that nobody traces: an engine instrumented while no
 * OpenTelemetry SDK is registered (the API's no-op tracer and meter), and one instrumented and
 * taken off again, each against an engine never instrumented, with the same async hook.
 */
export const otelSuite: Suite = {
  id: "otel",
  title: "OpenTelemetry off",
  async run({ profile }) {
    const event = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Bash",
      args: { command: "ls" },
    });
    let calls = 0;
    const handler = async () => {
      calls++;
      return undefined;
    };
    const engine = (instrument: "never" | "no-sdk" | "removed") => {
      const e = new HookEngine();
      e.register({ event: "PreToolUse", handler });
      if (instrument !== "never") {
        const instrumentation = instrumentHooks(e);
        if (instrument === "removed") instrumentation.uninstrument();
      }
      return e;
    };
    const plain = engine("never");
    const noSdk = engine("no-sdk");
    const removed = engine("removed");
    for (const [name, e] of Object.entries({ plain, noSdk, removed })) {
      calls = 0;
      const result = await e.fire(event);
      if (calls !== 1 || result.outcomes.length !== 1) {
        throw new BenchError("TASK_FAILED", `${name}: ran ${calls} of 1 handler`);
      }
    }
    const samples = await sampleTasks(
      [
        { name: "plain", fn: () => plain.fire(event), async: true },
        { name: "noSdk", fn: () => noSdk.fire(event), async: true },
        { name: "removed", fn: () => removed.fire(event), async: true },
      ],
      { ...profile.inProcess, batch: 100 },
    );
    const baseline = side("`fire()` of an engine never instrumented", summarize(samples.plain!));
    const what = "`fire()`, 1 async in-process hook, OpenTelemetry off";
    return {
      rows: [
        makeRow({
          id: "otel.off.no-sdk",
          what,
          ours: side(
            "`instrumentHooks(engine)`, no OpenTelemetry SDK registered",
            summarize(samples.noSdk!),
          ),
          baseline,
          goal: goals.ratioAtMost(1.1, "≤ 1.1× (equal, within the noise)"),
          smoke: profile.smoke,
          note: "With no SDK registered, the API hands out no-op spans and instruments: nothing is recorded or propagated, but the wrapper still runs. An engine that is never instrumented runs exactly the code it ran before: nothing in core knows about OpenTelemetry, and `@opentelemetry/api` is loaded only by `@a3s-lab/hooks-node/otel`.",
        }),
        makeRow({
          id: "otel.off.removed",
          what,
          ours: side("instrumented, then `uninstrument()`", summarize(samples.removed!)),
          baseline,
          goal: goals.ratioAtMost(1.1, "≤ 1.1× (equal, within the noise)"),
          smoke: profile.smoke,
        }),
      ],
      pending: [],
    };
  },
};
