import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { EventEmitter } from "eventemitter3";
import { Hookable } from "hookable";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, type Row, side } from "../row.js";
import { sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Profile, Suite } from "../suite.js";

type Handler = (event: HookEvent) => Promise<undefined>;
type SyncHandler = (event: HookEvent) => undefined;

/**
 * `fire()` with N async in-process hooks, against three other ways to run the same handlers;
 * and with 10 synchronous hooks, against a plain loop that collects their answers.
 */
export const fireHooksSuite: Suite = {
  id: "fire-hooks",
  title: "fire() with async and sync in-process hooks",
  async run({ profile }) {
    const event = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Bash",
      args: { command: "ls" },
    });
    const rows: Row[] = [];
    for (const count of [1, 10]) {
      let calls = 0;
      // The same handler functions go into every contender; each counts its calls so a
      // contender that skipped them would be caught below.
      const handlers: Handler[] = Array.from({ length: count }, () => async () => {
        calls++;
        return undefined;
      });
      const engine = new HookEngine();
      for (const handler of handlers) engine.register({ event: "PreToolUse", handler });
      const hooks = new Hookable<Record<"PreToolUse", Handler>>();
      for (const handler of handlers) hooks.hook("PreToolUse", handler);
      const emitter = new EventEmitter();
      for (const handler of handlers) emitter.on("PreToolUse", handler);

      const plainLoop = () => {
        const pending: Promise<undefined>[] = [];
        for (const handler of handlers) pending.push(handler(event));
        return Promise.all(pending);
      };
      const contenders = {
        engine: () => engine.fire(event),
        plain: plainLoop,
        hookable: () => hooks.callHookParallel("PreToolUse", event),
        eventemitter3: () => emitter.emit("PreToolUse", event),
      };
      for (const [name, run] of Object.entries(contenders)) {
        calls = 0;
        await run();
        if (calls !== count) {
          throw new BenchError("TASK_FAILED", `${name}: ran ${calls} of ${count} handlers`);
        }
      }

      const samples = await sampleTasks(
        [
          { name: "engine", fn: contenders.engine, async: true },
          { name: "plain", fn: contenders.plain, async: true },
          { name: "hookable", fn: contenders.hookable, async: true },
          { name: "eventemitter3", fn: contenders.eventemitter3 },
        ],
        { ...profile.inProcess, batch: count === 1 ? 100 : 20 },
      );
      const ours = side("`HookEngine.fire()`", summarize(samples.engine!));
      const what = `\`fire()\`, ${count} async in-process hook${count > 1 ? "s" : ""}`;
      rows.push(
        makeRow({
          id: `fire.hooks-${count}.plain`,
          what,
          ours,
          baseline: side("plain loop + `Promise.all`", summarize(samples.plain!)),
          goal:
            count === 1
              ? goals.ratioAtMost(2, "≤ 2× plain loop")
              : goals.ratioAtMost(1.5, "≤ 1.5× plain loop"),
          smoke: profile.smoke,
        }),
        makeRow({
          id: `fire.hooks-${count}.hookable`,
          what,
          ours,
          baseline: side("hookable `callHookParallel`", summarize(samples.hookable!)),
          goal: goals.fasterThan("faster than hookable"),
          smoke: profile.smoke,
        }),
        makeRow({
          id: `fire.hooks-${count}.eventemitter3`,
          what,
          ours,
          baseline: side("eventemitter3 `emit`", summarize(samples.eventemitter3!)),
          goal: goals.none(),
          smoke: profile.smoke,
          note: "`emit` starts the handlers and returns; it neither waits for them nor looks at their answers, so it is a floor, not a peer.",
        }),
      );
    }
    rows.push(await syncRow(event, profile));
    return { rows, pending: [] };
  },
};

/**
 * `fire()` with 10 synchronous hooks (each returns its answer, no promise), against a plain
 * loop that calls the same handlers, collects their answers and hands back one promise of
 * them: what a host's own hook point would do, without timeouts, durations or a merge.
 */
async function syncRow(event: HookEvent, profile: Profile): Promise<Row> {
  const count = 10;
  let calls = 0;
  const handlers: SyncHandler[] = Array.from({ length: count }, () => () => {
    calls++;
    return undefined;
  });
  const engine = new HookEngine();
  for (const handler of handlers) engine.register({ event: "PreToolUse", handler });
  const plainLoop = () => {
    const answers: undefined[] = [];
    for (const handler of handlers) answers.push(handler(event));
    return Promise.resolve(answers);
  };
  const contenders = { engine: () => engine.fire(event), plain: plainLoop };
  for (const [name, run] of Object.entries(contenders)) {
    calls = 0;
    await run();
    if (calls !== count) {
      throw new BenchError("TASK_FAILED", `${name}: ran ${calls} of ${count} handlers`);
    }
  }
  const samples = await sampleTasks(
    [
      { name: "engine", fn: contenders.engine, async: true },
      { name: "plain", fn: contenders.plain, async: true },
    ],
    { ...profile.inProcess, batch: 100 },
  );
  return makeRow({
    id: `fire.sync-hooks-${count}.plain`,
    what: `\`fire()\`, ${count} sync in-process hooks`,
    ours: side("`HookEngine.fire()`", summarize(samples.engine!)),
    baseline: side("plain loop collecting the answers, one promise", summarize(samples.plain!)),
    goal: goals.ratioAtMost(4, "≤ 4× plain loop"),
    smoke: profile.smoke,
    note: "Both awaited. The handlers return their answers (no promise); the engine still times each hook, gives it a context and merges the answers.",
  });
}
