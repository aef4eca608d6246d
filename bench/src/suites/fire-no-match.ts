import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { bytesPerCall } from "../alloc.js";
import { goals, makeRow, type Row, side } from "../row.js";
import { sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

// Kept out of line so the baseline is a real call, as a host's own no-op hook point would be.
function emptyFunction(_event: unknown): undefined {
  return undefined;
}

/** `fire()` when nothing matches: the cost every host pays on every event. */
export const fireNoMatchSuite: Suite = {
  id: "fire-no-match",
  title: "fire() with no matching hook",
  async run({ profile }) {
    const event = createEvent("PreToolUse", {
      sessionId: "s1",
      tool: "Bash",
      args: { command: "ls" },
    });
    // Hooks exist, but for another event: the map lookup misses.
    const otherEvent = new HookEngine();
    otherEvent.register({ event: "PostToolUse", handler: () => undefined });
    otherEvent.register({ event: "Stop", handler: () => undefined });
    // Hooks for this event, none of whose matchers fit: every matcher runs.
    const noMatch = new HookEngine();
    noMatch.register({ event: "PreToolUse", matcher: "Write", handler: () => undefined });
    noMatch.register({ event: "PreToolUse", matcher: "Edit|MultiEdit", handler: () => undefined });
    noMatch.register({
      event: "PreToolUse",
      matcher: { tool: "Read", pathPattern: "*.env" },
      handler: () => undefined,
    });

    const samples = await sampleTasks(
      [
        { name: "empty", fn: () => emptyFunction(event) },
        { name: "otherEvent", fn: () => otherEvent.fire(event) },
        { name: "noMatch", fn: () => noMatch.fire(event) },
      ],
      { ...profile.inProcess, batch: 2000 },
    );
    const empty = side("an empty function call", summarize(samples.empty!));
    const rows: Row[] = [
      makeRow({
        id: "fire.no-match.other-event",
        what: "`fire()`, no hook for this event (hooks on others)",
        ours: side("`HookEngine.fire()`", summarize(samples.otherEvent!)),
        baseline: empty,
        goal: goals.medianBelow(100, "< 100 ns"),
        smoke: profile.smoke,
        note: "Time to return the settled promise, not to await it: awaiting costs every caller the same microtask.",
      }),
      makeRow({
        id: "fire.no-match.matchers",
        what: "`fire()`, 3 hooks for this event, no matcher fits",
        ours: side("`HookEngine.fire()`", summarize(samples.noMatch!)),
        baseline: empty,
        goal: goals.medianBelow(100, "< 100 ns"),
        smoke: profile.smoke,
      }),
    ];

    const calls = profile.allocCalls;
    const emptyBytes = bytesPerCall(() => emptyFunction(event), calls);
    const allocSide = (label: string, bytes: number) => ({
      label,
      unit: "B" as const,
      median: bytes,
    });
    const allocNote =
      "Bytes per call on the JS heap (v8.GCProfiler bookkeeping, see README). `fire()` returns a Promise of a fresh result object, so some bytes per call are part of its signature.";
    rows.push(
      makeRow({
        id: "fire.no-match.other-event.alloc",
        what: "`fire()`, no hook for this event: allocation",
        ours: allocSide(
          "`HookEngine.fire()`",
          bytesPerCall(() => otherEvent.fire(event), calls),
        ),
        baseline: allocSide("an empty function call", emptyBytes),
        goal: goals.noAllocation(),
        smoke: profile.smoke,
        note: allocNote,
      }),
      makeRow({
        id: "fire.no-match.matchers.alloc",
        what: "`fire()`, no matcher fits: allocation",
        ours: allocSide(
          "`HookEngine.fire()`",
          bytesPerCall(() => noMatch.fire(event), calls),
        ),
        baseline: allocSide("an empty function call", emptyBytes),
        goal: goals.noAllocation(),
        smoke: profile.smoke,
        note: allocNote,
      }),
      makeRow({
        id: "fire.no-match.has-guard.alloc",
        what: "`engine.has(type) && fire()`, no hook for this event: allocation",
        ours: allocSide(
          "`has()` guard",
          bytesPerCall(
            () => (otherEvent.has(event.eventType) ? otherEvent.fire(event) : undefined),
            calls,
          ),
        ),
        baseline: allocSide("an empty function call", emptyBytes),
        goal: goals.none("– (how a host gets 0 B today)"),
        smoke: profile.smoke,
      }),
    );
    return { rows, pending: [] };
  },
};
