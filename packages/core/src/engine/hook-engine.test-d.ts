import { describe, expectTypeOf, it } from "vitest";
import { createEvent } from "../events/create-event.js";
import type {
  PostToolUseFailureEvent,
  PreToolUseEvent,
  StopEvent,
} from "../events/event-schemas.js";
import { block } from "../merge/hook-response.js";
import type { HookResult } from "../merge/merge.js";
import { HookEngine } from "./hook-engine.js";

const engine = new HookEngine();

describe("handler types", () => {
  it("a PreToolUse handler sees event.args and event.tool", () => {
    engine.register({
      event: "PreToolUse",
      handler: (event, ctx) => {
        expectTypeOf(event).toEqualTypeOf<PreToolUseEvent>();
        expectTypeOf(event.args).toEqualTypeOf<Record<string, unknown>>();
        expectTypeOf(event.tool).toBeString();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return block("x");
      },
    });
  });

  it("the ToolError alias types its handler as PostToolUseFailure", () => {
    engine.register({
      event: "ToolError",
      handler: (event) => {
        expectTypeOf(event).toEqualTypeOf<PostToolUseFailureEvent>();
      },
    });
  });

  it("a misspelled event name does not compile", () => {
    // @ts-expect-error: "PreToolUze" is not an event
    engine.register({ event: "PreToolUze", handler: () => undefined });
    // @ts-expect-error: Stop has no tool field
    engine.register({ event: "Stop", handler: (event) => event.tool });
  });

  it("a handler must return a response or nothing", () => {
    // @ts-expect-error: "explode" is not an action
    engine.register({ event: "Stop", handler: () => ({ action: "explode" }) });
    engine.register({ event: "Stop", handler: async () => undefined });
    engine.register({ event: "Stop", handler: () => {} });
  });

  it("fire returns a result typed by the event it was given", () => {
    const result = engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    expectTypeOf(result).toEqualTypeOf<Promise<HookResult<StopEvent>>>();
  });

  it("createEvent requires the event's own fields", () => {
    // @ts-expect-error: args is missing
    createEvent("PreToolUse", { sessionId: "s", tool: "Bash" });
    expectTypeOf(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: {} }),
    ).toEqualTypeOf<PreToolUseEvent>();
  });

  it("a multi-event hook's handler sees the union of its events", () => {
    engine.register({
      name: "log",
      events: ["PreToolUse", "Stop"],
      execute: (event) => {
        expectTypeOf(event).toEqualTypeOf<PreToolUseEvent | StopEvent>();
      },
    });
  });

  it("a result's arrays are read-only: some are shared frozen arrays", async () => {
    const result = await engine.fire(
      createEvent("Stop", { sessionId: "s", reason: "done" } as never),
    );
    expectTypeOf(result.outcomes).toEqualTypeOf<HookResult["outcomes"]>();
    // @ts-expect-error: readonly
    result.systemMessages.push("x");
    // @ts-expect-error: readonly
    result.warnings.push("x");
    // @ts-expect-error: readonly
    result.conflicts.pop();
    // @ts-expect-error: readonly
    result.outcomes.length = 0;
  });
});

describe("middleware types", () => {
  it("wrapFire sees the events it names, and next gives that event's result", () => {
    engine.use({
      name: "typed",
      events: ["PreToolUse"],
      wrapFire: async (event, ctx, next) => {
        expectTypeOf(event).toEqualTypeOf<PreToolUseEvent>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal | undefined>();
        const result = await next({ ...event, args: { command: "ls" } });
        expectTypeOf(result).toEqualTypeOf<HookResult<PreToolUseEvent>>();
        return result;
      },
      wrapToolCall: (call, _ctx, next) => {
        expectTypeOf(call.args).toEqualTypeOf<Record<string, unknown>>();
        return next();
      },
    });
  });

  it("an unknown event name in events fails to compile", () => {
    // @ts-expect-error: not an event
    engine.use({ name: "typo", events: ["PreToolUs"], wrapFire: (_e, _c, next) => next() });
  });
});
