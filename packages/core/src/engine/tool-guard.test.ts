import { afterEach, describe, expect, it, vi } from "vitest";
import { HookError } from "../base/hook-error.js";
import type { HookEvent } from "../events/event-schemas.js";
import { addContext, block, modify, retry } from "../merge/hook-response.js";
import { HookEngine } from "./hook-engine.js";
import { runTool, ToolBlockedError, TurnStoppedError } from "./tool-guard.js";

afterEach(() => {
  vi.useRealTimers();
});

function recording(engine: HookEngine): HookEvent[] {
  const seen: HookEvent[] = [];
  for (const event of ["PreToolUse", "PostToolUse", "PostToolUseFailure"] as const) {
    engine.register({ event, priority: -100, handler: (e) => void seen.push(e) });
  }
  return seen;
}

const call = { sessionId: "s1", tool: "Bash", args: { command: "ls" } };

describe("runTool", () => {
  it("runs PreToolUse, the tool with the hooks' args, then PostToolUse with duration and exit code", async () => {
    const engine = new HookEngine();
    const seen = recording(engine);
    engine.register({
      event: "PreToolUse",
      handler: () => modify({ args: { command: "ls -la" } }),
    });
    const execute = vi.fn(async (args: Record<string, unknown>) => ({
      output: `ran ${String(args.command)}`,
      exitCode: 0,
    }));
    const result = await runTool(engine, call, execute);
    expect(execute).toHaveBeenCalledWith({ command: "ls -la" }, undefined);
    expect(result).toMatchObject({
      output: "ran ls -la",
      success: true,
      exitCode: 0,
      args: { command: "ls -la" },
    });
    expect(seen.map((e) => e.eventType)).toEqual(["PreToolUse", "PostToolUse"]);
    expect(seen[1]).toMatchObject({
      tool: "Bash",
      args: { command: "ls -la" },
      result: { success: true, exitCode: 0, output: "ran ls -la" },
    });
  });

  it("throws ToolBlockedError with the reason and never runs the tool when a hook blocks", async () => {
    const engine = new HookEngine();
    const seen = recording(engine);
    engine.register({ event: "PreToolUse", handler: () => block("Dangerous command") });
    const execute = vi.fn(async () => ({ output: "" }));
    const error = await runTool(engine, call, execute).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolBlockedError);
    expect(error).toMatchObject({ code: "BLOCKED", tool: "Bash", reason: "Dangerous command" });
    expect(execute).not.toHaveBeenCalled();
    expect(seen.map((e) => e.eventType)).toEqual(["PreToolUse"]);
  });

  it("honours retry with the asked delay, at most maxRetries times", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine();
    let attempts = 0;
    engine.register({
      event: "PreToolUse",
      handler: () => (++attempts < 3 ? retry(1000) : undefined),
    });
    const pending = runTool(engine, call, async () => ({ output: "ok" }));
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toMatchObject({ output: "ok" });
    expect(attempts).toBe(3);

    const stubborn = new HookEngine();
    stubborn.register({ event: "PreToolUse", handler: () => retry(0) });
    const execute = vi.fn(async () => ({ output: "" }));
    const exhausted = runTool(stubborn, call, execute, { maxRetries: 2 }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await exhausted).toMatchObject({ code: "RETRY_EXHAUSTED" });
    expect(execute).not.toHaveBeenCalled();
  });

  it("fires PostToolUseFailure with the error when the tool throws, and rethrows", async () => {
    const engine = new HookEngine();
    const seen = recording(engine);
    const boom = new Error("disk full");
    await expect(runTool(engine, call, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(seen.map((e) => e.eventType)).toEqual(["PreToolUse", "PostToolUseFailure"]);
    expect(seen[1]).toMatchObject({ error: "disk full" });
  });

  it("fires PostToolUseFailure for an unsuccessful result and returns it", async () => {
    const engine = new HookEngine();
    const seen = recording(engine);
    const result = await runTool(engine, call, async () => ({
      output: "no such file",
      exitCode: 2,
      success: false,
    }));
    expect(result).toMatchObject({ success: false, exitCode: 2 });
    expect(seen[1]).toMatchObject({
      eventType: "PostToolUseFailure",
      error: "no such file",
      exitCode: 2,
    });
  });

  it("returns the output as PostToolUse hooks rewrote it, and their added context", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PostToolUse",
      handler: () => modify({ result: { output: "[redacted]" } }),
    });
    engine.register({ event: "PreToolUse", handler: () => addContext("pre note") });
    engine.register({ event: "PostToolUse", handler: () => addContext("post note") });
    const result = await runTool(engine, call, async () => ({ output: "secret=1" }));
    expect(result.output).toBe("[redacted]");
    expect(result.additionalContext).toBe("pre note\npost note");
  });

  it("runs authorize between PreToolUse and the tool; a throw there stops the call", async () => {
    const engine = new HookEngine();
    const execute = vi.fn(async () => ({ output: "" }));
    const denied = new HookError("BLOCKED", "user said no");
    await expect(
      runTool(engine, call, execute, { authorize: () => Promise.reject(denied) }),
    ).rejects.toBe(denied);
    expect(execute).not.toHaveBeenCalled();
    const order: string[] = [];
    await runTool(
      engine,
      call,
      async () => {
        order.push("tool");
        return { output: "" };
      },
      {
        authorize: () => void order.push("authorize"),
      },
    );
    expect(order).toEqual(["authorize", "tool"]);
  });

  it("rejects with ABORTED while waiting to retry when the signal aborts", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => retry(60_000) });
    const controller = new AbortController();
    const pending = runTool(engine, call, async () => ({ output: "" }), {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new HookError("ABORTED", "stop"));
    expect(await pending).toMatchObject({ code: "ABORTED" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("runs the tool and PostToolUse with the arguments authorize returns", async () => {
    const engine = new HookEngine();
    const seen = recording(engine);
    const execute = vi.fn(async (args: Record<string, unknown>) => ({
      output: String(args.command),
    }));
    const result = await runTool(engine, call, execute, {
      authorize: (args) => ({ ...args, command: "ls -l" }),
    });
    expect(execute).toHaveBeenCalledWith({ command: "ls -l" }, undefined);
    expect(result.args).toEqual({ command: "ls -l" });
    expect(seen[1]).toMatchObject({ eventType: "PostToolUse", args: { command: "ls -l" } });
  });
});

describe("runTool and a hook that stops the turn (continue: false)", () => {
  it("does not run the tool and throws TurnStoppedError with the stop reason, not a block", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: () => ({ action: "continue", stopTurn: { reason: "deploy freeze" } }),
    });
    const execute = vi.fn(async () => ({ output: "ran" }));
    const error = await runTool(engine, call, execute).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnStoppedError);
    expect(error).not.toBeInstanceOf(ToolBlockedError);
    expect((error as TurnStoppedError).stopReason).toBe("deploy freeze");
    expect(execute).not.toHaveBeenCalled();
  });

  it("reports a PostToolUse stop with the result (the tool already ran)", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PostToolUse",
      handler: () => ({ action: "continue", stopTurn: {} }),
    });
    const result = await runTool(engine, call, async () => ({ output: "ran" }));
    expect(result.output).toBe("ran");
    expect(result.stopTurn).toMatchObject({});
    expect(result.stopTurn?.hookId).toBeTypeOf("string");
  });
});
