import type { HookHandle, HookResponse } from "@a3s-lab/hooks-core";
import { describe, expectTypeOf, it } from "vitest";
import {
  A3sClient,
  type GenerateEndEvent,
  type PostToolUseFailureEvent,
  type PreToolUseEvent,
} from "./index.js";

const client = new A3sClient();

describe("A3sClient types", () => {
  it("types a handler by the event it is registered for", () => {
    client.registerHook("PreToolUse", (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PreToolUseEvent>();
      expectTypeOf(event.args).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(ctx.deadline).toBeNumber();
      expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
    });
    client.registerHook("GenerateEnd", {
      matcher: "gpt-*",
      handler: (event) => {
        expectTypeOf(event).toEqualTypeOf<GenerateEndEvent>();
        expectTypeOf(event.response.usage.total_tokens).toBeNumber();
      },
    });
    // The alias resolves to the canonical event's type.
    client.registerHook("ToolError", (event) => {
      expectTypeOf(event).toEqualTypeOf<PostToolUseFailureEvent>();
    });
  });

  it("returns a disposable handle synchronously, like the engine's register", () => {
    const hook = client.registerHook("Stop", () => undefined);
    expectTypeOf(hook).toEqualTypeOf<HookHandle>();
    expectTypeOf(hook.id).toBeString();
    expectTypeOf(hook).toExtend<Disposable>();
    expectTypeOf(client.unregisterHook("x")).toBeBoolean();
    expectTypeOf(client.unregisterHook(hook)).toBeBoolean();
  });

  it("accepts the A3S Box hooks design's response shapes and nothing else", () => {
    client.registerHook("PreToolUse", async () => ({ action: "block", reason: "no" }));
    client.registerHook("PreToolUse", () => ({ action: "retry", delay: 100 }));
    client.registerHook("PreToolUse", () => ({
      action: "continue",
      modified: { args: { timeout: 1 } },
    }));
    // @ts-expect-error: not an action
    client.registerHook("PreToolUse", () => ({ action: "explode" }));
    // @ts-expect-error: a block needs a reason
    client.registerHook("PreToolUse", () => ({ action: "block" }));
    expectTypeOf<HookResponse>().toMatchTypeOf<{ action: string }>();
  });

  it("refuses a typo in an event name, a predicate matcher, and a bad fail behaviour", () => {
    // @ts-expect-error: no such event
    client.registerHook("PreToolUze", () => undefined);
    // @ts-expect-error: matching runs in the agent; no functions
    client.registerHook("PreToolUse", { matcher: () => true, handler: () => undefined });
    // @ts-expect-error: failBehavior is continue or block
    client.registerHook("Stop", { handler: () => undefined, config: { failBehavior: "panic" } });
  });

  it("types temporaryHook's two forms", () => {
    expectTypeOf(
      client.temporaryHook(
        "PreToolUse",
        () => undefined,
        () => 42,
      ),
    ).toEqualTypeOf<Promise<number>>();
    expectTypeOf(client.temporaryHook("PreToolUse", () => undefined)).toHaveProperty(
      Symbol.asyncDispose,
    );
  });
});
