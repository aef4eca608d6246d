import { block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../test/fixtures/scripted-model.js";
import { HookSession, PromptBlockedError } from "./hook-session.js";

describe("HookSession", () => {
  it("runs another turn with the reason of a Stop hook that says continue", async () => {
    const model = scriptedModel([{ text: "draft" }, { text: "draft, with tests" }]);
    const engine = new HookEngine();
    const stops: { active: boolean; text: string | undefined }[] = [];
    engine.register({
      event: "Stop",
      handler: (e) => {
        stops.push({ active: e.stopHookActive, text: e.responseText });
        return e.stopHookActive ? undefined : block("add the tests too");
      },
    });
    const session = new HookSession(engine, { sessionId: "s1" });
    const { turns, stopReason } = await session.run("write code", (prompt) =>
      generateText({ model, prompt }),
    );
    expect(turns.map((t) => t.text)).toEqual(["draft", "draft, with tests"]);
    expect(stopReason).toBeUndefined();
    expect(stops).toEqual([
      { active: false, text: "draft" },
      { active: true, text: "draft, with tests" },
    ]);
    const second = model.doGenerateCalls[1]!.prompt.find((m) => m.role === "user");
    expect(second?.content).toEqual([{ type: "text", text: "add the tests too" }]);
  });

  it("stops after maxContinuations, and says why", async () => {
    const engine = new HookEngine();
    engine.register({ event: "Stop", handler: () => block("again") });
    const session = new HookSession(engine, { sessionId: "s1", maxContinuations: 2 });
    let turns = 0;
    const result = await session.run("go", async () => ({ text: `turn ${++turns}` }));
    expect(result.turns).toHaveLength(3);
    expect(result.stopReason).toMatch(/the limit is 2: again$/);
  });

  it("passes the prompt a UserPromptSubmit hook rewrote, with its context, and rejects a blocked one", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "UserPromptSubmit",
      handler: (e) =>
        e.prompt.includes("secret")
          ? block("no secrets")
          : { ...modify({ prompt: `${e.prompt}!` }), additionalContext: "today is Monday" },
    });
    const session = new HookSession(engine, { sessionId: "s1" });
    const seen: unknown[] = [];
    await session.run("hello", async (prompt, context) => {
      seen.push([prompt, context]);
      return { text: "" };
    });
    expect(seen).toEqual([["hello!", "today is Monday"]]);
    const error = await session.run("the secret", async () => ({ text: "" })).catch((e) => e);
    expect(error).toBeInstanceOf(PromptBlockedError);
    expect(error.reason).toBe("no secrets");
  });

  it("fires SessionStart (which may block) and SessionEnd", async () => {
    const engine = new HookEngine();
    const fired: string[] = [];
    engine.register({
      event: "SessionStart",
      handler: (e) => (e.source === "resume" ? block("no resuming") : void fired.push(e.source)),
    });
    engine.register({ event: "SessionEnd", handler: (e) => void fired.push(e.reason) });
    const session = new HookSession(engine, { sessionId: "s1" });
    await session.start();
    await session.end();
    expect(fired).toEqual(["startup", "exit"]);
    await expect(session.start("resume")).rejects.toThrow(/no resuming/);
  });
});
