import { describe, expect, it } from "vitest";
import { createEvent } from "../events/create-event.js";
import type { HookResponse } from "../merge/hook-response.js";
import { answersChecked } from "./checked-answers.js";
import { HookEngine } from "./hook-engine.js";

const event = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "ls" } });

describe("answersChecked", () => {
  it("makes the engine take a transport's answers as they are, without checking them again", async () => {
    const engine = new HookEngine();
    // Outside the response schema (a retry delay below zero): only a handler whose answers are
    // not checked again can get it into the merge.
    const answer = { action: "retry", delay: -1 } as HookResponse;
    engine.register({ event: "PreToolUse", handler: answersChecked(() => answer) });
    const result = await engine.fire(event());
    expect(result.outcomes[0]).toMatchObject({ status: "ok", action: "retry" });
  });

  it("leaves every other handler's answers checked", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: () => ({ action: "retry", delay: -1 }) as HookResponse,
    });
    const result = await engine.fire(event());
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_OUTPUT" },
    });
  });

  it("holds for a multi-event hook's execute and returns the handler itself", async () => {
    const engine = new HookEngine();
    const execute = () => ({ action: "retry", delay: -1 }) as HookResponse;
    expect(answersChecked(execute)).toBe(execute);
    engine.register({ name: "m", events: ["PreToolUse"], execute });
    const result = await engine.fire(event());
    expect(result.outcomes[0]).toMatchObject({ status: "ok", action: "retry" });
  });
});
