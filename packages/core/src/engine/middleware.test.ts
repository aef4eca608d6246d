import { describe, expect, it, vi } from "vitest";
import { HookError } from "../base/hook-error.js";
import { createEvent } from "../events/create-event.js";
import type { PostToolUseEvent, PreToolUseEvent } from "../events/event-schemas.js";
import { block, modify } from "../merge/hook-response.js";
import type { HookResult } from "../merge/merge.js";
import { HookEngine } from "./hook-engine.js";
import { contextKey, type HookMiddleware } from "./middleware.js";
import { runTool } from "./tool-guard.js";

const bash = (command: string): PreToolUseEvent =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

function warningsOf(engine: HookEngine): string[] {
  const warnings: string[] = [];
  engine.on("warning", (w) => warnings.push(w.message));
  return warnings;
}

function thrown(fn: () => unknown): HookError {
  try {
    fn();
  } catch (error) {
    if (HookError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a HookError");
}

describe("engine.use: around a firing", () => {
  it("observes: next() runs the hooks and its result is the firing's", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => block("no rm") });
    const seen: string[] = [];
    engine.use({
      name: "observer",
      wrapFire: async (event, _ctx, next) => {
        seen.push(`before ${event.eventType}`);
        const result = await next();
        seen.push(`after ${result.action}`);
        return result;
      },
    });
    const result = await engine.fire(bash("rm -rf /"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("no rm");
    expect(seen).toEqual(["before PreToolUse", "after block"]);
  });

  it("rewrites: the hooks see the event next() was given", async () => {
    const engine = new HookEngine();
    const commands: unknown[] = [];
    engine.register({ event: "PreToolUse", handler: (e) => void commands.push(e.args.command) });
    engine.use({
      name: "rewriter",
      events: ["PreToolUse"],
      wrapFire: (event, _ctx, next) => next({ ...event, args: { command: "ls -la" } }),
    });
    const result = await engine.fire(bash("ls"));
    expect(commands).toEqual(["ls -la"]);
    expect(result.event.args).toEqual({ command: "ls -la" });
  });

  it("answers in place: the hooks do not run and the answer is merged as the middleware's", async () => {
    const engine = new HookEngine();
    const handler = vi.fn();
    engine.register({ event: "PreToolUse", handler });
    engine.use({ name: "policy", wrapFire: () => block("denied by cache") });
    const result = await engine.fire(bash("ls"));
    expect(handler).not.toHaveBeenCalled();
    expect(result.action).toBe("block");
    expect(result.reason).toBe("denied by cache");
    expect(result.blockedBy).toBe("middleware:policy");
  });

  it("answers in place with a modification, validated like a hook's", async () => {
    const engine = new HookEngine();
    engine.use({ name: "m", wrapFire: () => modify({ args: { command: "pwd" } }) });
    const result = await engine.fire(bash("ls"));
    expect(result.event.args).toEqual({ command: "pwd" });
    expect(result.modified).toBe(true);
  });

  it("runs even when no hook is registered for the event", async () => {
    const engine = new HookEngine();
    const wrapFire = vi.fn((_e, _c, next: () => Promise<HookResult>) => next());
    engine.use({ name: "m", wrapFire });
    const result = await engine.fire(bash("ls"));
    expect(wrapFire).toHaveBeenCalledTimes(1);
    expect(result.action).toBe("continue");
  });

  it("runs in priority order, lower outside, ties by registration order", async () => {
    const engine = new HookEngine();
    const order: string[] = [];
    const layer = (name: string, priority: number): HookMiddleware => ({
      name,
      priority,
      wrapFire: async (_event, _ctx, next) => {
        order.push(`in ${name}`);
        const result = await next();
        order.push(`out ${name}`);
        return result;
      },
    });
    engine.use(layer("c", 10));
    engine.use(layer("a", -5));
    engine.use(layer("b1", 0));
    engine.use(layer("b2", 0));
    engine.register({ event: "PreToolUse", handler: () => void order.push("hook") });
    await engine.fire(bash("ls"));
    expect(order).toEqual([
      "in a",
      "in b1",
      "in b2",
      "in c",
      "hook",
      "out c",
      "out b2",
      "out b1",
      "out a",
    ]);
  });

  it("wraps only the events it names", async () => {
    const engine = new HookEngine();
    const wrapFire = vi.fn((_e, _c, next: () => Promise<HookResult>) => next());
    engine.use({ name: "m", events: ["Stop"], wrapFire: wrapFire as never });
    await engine.fire(bash("ls"));
    expect(wrapFire).not.toHaveBeenCalled();
    await engine.fire(createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
    expect(wrapFire).toHaveBeenCalledTimes(1);
  });

  it("fails open by default: a throw is a warning and the hooks answer as if it were absent", async () => {
    const engine = new HookEngine();
    const warnings = warningsOf(engine);
    const handler = vi.fn(() => block("hook says no"));
    engine.register({ event: "PreToolUse", handler });
    engine.use({
      name: "flaky",
      wrapFire: () => {
        throw new Error("boom");
      },
    });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("hook says no");
    expect(handler).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual(["middleware flaky: wrapFire failed: boom"]);
  });

  it("fails open after next() without running the hooks twice", async () => {
    const engine = new HookEngine();
    const handler = vi.fn(() => undefined);
    engine.register({ event: "PreToolUse", handler });
    engine.use({
      name: "late",
      wrapFire: async (_event, _ctx, next) => {
        await next();
        throw new Error("after");
      },
    });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("fails closed with failBehavior block: the firing blocks and names the middleware", async () => {
    const engine = new HookEngine();
    const handler = vi.fn();
    engine.register({ event: "PreToolUse", handler });
    engine.use({
      name: "guard",
      failBehavior: "block",
      wrapFire: async () => Promise.reject(new Error("policy service down")),
    });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.blockedBy).toBe("middleware:guard");
    expect(result.reason).toBe("middleware guard: wrapFire failed: policy service down");
    expect(handler).not.toHaveBeenCalled();
  });

  it("fails closed on an event that cannot block: continues, with a warning", async () => {
    const engine = new HookEngine();
    const warnings = warningsOf(engine);
    engine.use({
      name: "guard",
      failBehavior: "block",
      wrapFire: () => {
        throw new Error("down");
      },
    });
    const result = await engine.fire(createEvent("SessionEnd", { sessionId: "s1", reason: "x" }));
    expect(result.action).toBe("continue");
    expect(warnings).toHaveLength(1);
  });

  it("hostile answers are typed errors naming the middleware and field", async () => {
    const engine = new HookEngine();
    const warnings = warningsOf(engine);
    engine.register({ event: "PreToolUse", handler: () => block("hook") });
    const off = engine.use({ name: "garbage", wrapFire: () => 42 as never });
    expect((await engine.fire(bash("ls"))).reason).toBe("hook");
    off();
    const off2 = engine.use({
      name: "forgetful",
      wrapFire: async (_event, _ctx, next) => {
        await next();
        return undefined;
      },
    });
    expect((await engine.fire(bash("ls"))).reason).toBe("hook");
    off2();
    engine.use({
      name: "forger",
      wrapFire: () => ({ action: "explode", outcomes: [], event: bash("x") }) as never,
    });
    expect((await engine.fire(bash("ls"))).reason).toBe("hook");
    expect(warnings).toEqual([
      expect.stringMatching(
        /^middleware garbage: wrapFire failed: middleware garbage: wrapFire's answer: /,
      ),
      "middleware forgetful: wrapFire failed: middleware forgetful: wrapFire's answer: nothing was returned after calling next; return next's result",
      "middleware forger: wrapFire failed: middleware forger: wrapFire's answer.action: expected continue, block or retry",
    ]);
  });

  it("a rewrite that breaks the event is the middleware's failure, not the hooks'", async () => {
    const engine = new HookEngine();
    const warnings = warningsOf(engine);
    const commands: unknown[] = [];
    engine.register({ event: "PreToolUse", handler: (e) => void commands.push(e.args.command) });
    let error: unknown;
    engine.use({
      name: "bad-rewrite",
      wrapFire: async (event, _ctx, next) => {
        try {
          return await next({ ...event, eventType: "Stop" } as never);
        } catch (e) {
          error = e;
          throw e;
        }
      },
    });
    const result = await engine.fire(bash("ls"));
    expect(HookError.is(error, "INVALID_EVENT")).toBe(true);
    expect((error as HookError).message).toBe(
      'middleware bad-rewrite: next(event).eventType: must stay PreToolUse, got "Stop"',
    );
    expect(commands).toEqual(["ls"]);
    expect(result.action).toBe("continue");
    expect(warnings).toHaveLength(1);
  });

  it("returns a disposer: once called (or disposed) the middleware no longer runs", async () => {
    const engine = new HookEngine();
    const wrapFire = vi.fn((_e, _c, next: () => Promise<HookResult>) => next());
    const off = engine.use({ name: "m", wrapFire });
    await engine.fire(bash("ls"));
    off();
    off();
    await engine.fire(bash("ls"));
    expect(wrapFire).toHaveBeenCalledTimes(1);
    {
      using _m = engine.use({ name: "m2", wrapFire });
      await engine.fire(bash("ls"));
    }
    await engine.fire(bash("ls"));
    expect(wrapFire).toHaveBeenCalledTimes(2);
  });

  it("may fire another event inside (re-entrancy): each firing gets its own chain", async () => {
    const engine = new HookEngine();
    const notes: string[] = [];
    engine.register({ event: "Notification", handler: (e) => void notes.push(e.message) });
    engine.register({ event: "PreToolUse", handler: () => block("hook") });
    const calls: string[] = [];
    engine.use({
      name: "notifier",
      wrapFire: async (event, _ctx, next) => {
        calls.push(event.eventType);
        if (event.eventType === "PreToolUse") {
          const inner = await engine.fire(
            createEvent("Notification", {
              sessionId: "s1",
              message: "tool call",
              notificationType: "status",
            }),
          );
          expect(inner.action).toBe("continue");
        }
        return next();
      },
    });
    const result = await engine.fire(bash("ls"));
    expect(result.reason).toBe("hook");
    expect(notes).toEqual(["tool call"]);
    expect(calls).toEqual(["PreToolUse", "Notification"]);
  });

  it("carries values on ctx from middleware to inner middleware and hooks", async () => {
    const engine = new HookEngine();
    const TENANT = contextKey<string>("tenant");
    const seen: (string | undefined)[] = [];
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => void seen.push(ctx.get?.(TENANT)),
    });
    engine.use({
      name: "outer",
      priority: -1,
      wrapFire: (_e, ctx, next) => {
        ctx.set(TENANT, "acme");
        return next();
      },
    });
    engine.use({
      name: "inner",
      wrapFire: (_e, ctx, next) => {
        seen.push(`inner:${ctx.get(TENANT)}`);
        return next();
      },
    });
    await engine.fire(bash("ls"));
    await engine.fire(bash("ls")); // a new firing starts with no values from the last one
    expect(seen).toEqual(["inner:acme", "acme", "inner:acme", "acme"]);
    expect(contextKey("tenant")).not.toBe(TENANT);
  });

  it("a hook of a firing without middleware reads no value", async () => {
    const engine = new HookEngine();
    const KEY = contextKey<number>("n");
    const seen: unknown[] = [];
    engine.register({ event: "PreToolUse", handler: (_e, ctx) => void seen.push(ctx.get?.(KEY)) });
    await engine.fire(bash("ls"));
    const off = engine.use({
      name: "m",
      wrapFire: (_e, ctx, next) => {
        ctx.set(KEY, 7);
        return next();
      },
    });
    await engine.fire(bash("ls"));
    off();
    await engine.fire(bash("ls"));
    expect(seen).toEqual([undefined, 7, undefined]);
  });

  it("an aborted firing rejects as without middleware, and aborts pass through next()", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => new Promise((_, reject) => ctx.onAbort?.(reject)),
    });
    engine.use({ name: "m", failBehavior: "block", wrapFire: (_e, _c, next) => next() });
    const done = new AbortController();
    done.abort();
    await expect(engine.fire(bash("ls"), { signal: done.signal })).rejects.toMatchObject({
      code: "ABORTED",
    });
    const later = new AbortController();
    const pending = engine.fire(bash("ls"), { signal: later.signal });
    later.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    await expect(engine.fire({ eventType: "Nope" } as never)).rejects.toMatchObject({
      code: "UNKNOWN_EVENT",
    });
  });
});

describe("engine.use: checks", () => {
  it("names the bad field", () => {
    const engine = new HookEngine();
    const next = (_e: unknown, _c: unknown, n: () => unknown) => n();
    expect(thrown(() => engine.use(null as never)).path).toEqual(["middleware"]);
    expect(thrown(() => engine.use({ name: "", wrapFire: next as never })).path).toEqual([
      "middleware",
      "name",
    ]);
    expect(thrown(() => engine.use({ name: "m" })).message).toBe(
      "middleware.wrapFire: a middleware needs wrapFire, wrapToolCall or wrapGenerate",
    );
    expect(
      thrown(() => engine.use({ name: "m", events: ["Nope" as never], wrapFire: next as never }))
        .path,
    ).toEqual(["middleware", "events", "0"]);
    expect(
      thrown(() => engine.use({ name: "m", priority: Number.NaN, wrapFire: next as never })).code,
    ).toBe("INVALID_CONFIG");
    expect(
      thrown(() => engine.use({ name: "m", failBehavior: "ask" as never, wrapFire: next as never }))
        .path,
    ).toEqual(["middleware", "failBehavior"]);
    expect(thrown(() => engine.use({ name: "m", wrapToolCall: 1 as never })).path).toEqual([
      "middleware",
      "wrapToolCall",
    ]);
  });
});

describe("engine.use: around a tool call of runTool", () => {
  const call = { sessionId: "s1", tool: "Bash", args: { command: "ls" } };

  it("answers in place: the tool does not run, PostToolUse and the model see the answer", async () => {
    const engine = new HookEngine();
    const posted: string[] = [];
    engine.register({
      event: "PostToolUse",
      handler: (e: PostToolUseEvent) => void posted.push(e.result.output),
    });
    engine.use({ name: "cache", wrapToolCall: () => ({ output: "cached listing" }) });
    const execute = vi.fn(() => ({ output: "real" }));
    const result = await runTool(engine, call, execute);
    expect(execute).not.toHaveBeenCalled();
    expect(result.output).toBe("cached listing");
    expect(posted).toEqual(["cached listing"]);
  });

  it("observes and rewrites: the tool and PostToolUse get the arguments next() was given", async () => {
    const engine = new HookEngine();
    const postArgs: unknown[] = [];
    engine.register({ event: "PostToolUse", handler: (e) => void postArgs.push(e.args) });
    const seen: unknown[] = [];
    engine.use({
      name: "sandbox",
      wrapToolCall: async (c, _ctx, next) => {
        seen.push(c.args);
        const out = await next({ ...c, args: { command: `sandbox ${c.args.command}` } });
        return { ...out, output: out.output.toUpperCase() };
      },
    });
    const result = await runTool(engine, call, (args) => ({ output: `ran ${args.command}` }));
    expect(seen).toEqual([{ command: "ls" }]);
    expect(result.output).toBe("RAN SANDBOX LS");
    expect(result.args).toEqual({ command: "sandbox ls" });
    expect(postArgs).toEqual([{ command: "sandbox ls" }]);
  });

  it("the tool's own failure passes through as the tool's, with PostToolUseFailure", async () => {
    const engine = new HookEngine();
    const failures: string[] = [];
    engine.register({ event: "PostToolUseFailure", handler: (e) => void failures.push(e.error) });
    engine.use({ name: "m", failBehavior: "block", wrapToolCall: (_c, _ctx, next) => next() });
    const boom = new Error("disk full");
    await expect(
      runTool(engine, call, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(failures).toEqual(["disk full"]);
  });

  it("fails open: the tool runs once as if the middleware were absent", async () => {
    const engine = new HookEngine();
    const warnings = warningsOf(engine);
    engine.use({ name: "bad", wrapToolCall: () => ({ output: 5 }) as never });
    const execute = vi.fn(() => ({ output: "real" }));
    const result = await runTool(engine, call, execute);
    expect(result.output).toBe("real");
    expect(execute).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([
      "middleware bad: wrapToolCall failed: middleware bad: wrapToolCall's answer.output: expected a string",
    ]);
  });

  it("fails closed: runTool rejects BLOCKED, naming the middleware, and the tool does not run", async () => {
    const engine = new HookEngine();
    engine.use({
      name: "vault",
      failBehavior: "block",
      wrapToolCall: () => {
        throw new Error("no credentials");
      },
    });
    const execute = vi.fn(() => ({ output: "real" }));
    const error = await runTool(engine, call, execute).catch((e: unknown) => e);
    expect(HookError.is(error, "BLOCKED")).toBe(true);
    expect((error as HookError).message).toBe(
      "Bash was stopped: middleware vault: wrapToolCall failed: no credentials",
    );
    expect(execute).not.toHaveBeenCalled();
  });

  it("a call rewritten to another tool is refused, naming the field", async () => {
    const engine = new HookEngine();
    let error: unknown;
    engine.use({
      name: "swap",
      wrapToolCall: (c, _ctx, next) =>
        next({ ...c, tool: "Write" }).catch((e: unknown) => {
          error = e;
          throw e;
        }),
    });
    const result = await runTool(engine, call, () => ({ output: "ok" }));
    expect(result.output).toBe("ok");
    expect((error as HookError).message).toBe("middleware swap: next(call).tool: must stay Bash");
  });

  it("a tool-only middleware leaves firings alone, and a fire-only one leaves tools alone", async () => {
    const engine = new HookEngine();
    const wrapFire = vi.fn((_e, _c, next: () => Promise<HookResult>) => next());
    const wrapToolCall = vi.fn((_c, _ctx, next: () => Promise<{ output: string }>) => next());
    engine.use({ name: "f", wrapFire });
    const offTool = engine.use({ name: "t", wrapToolCall });
    await runTool(engine, call, () => ({ output: "ok" }));
    expect(wrapFire).toHaveBeenCalledTimes(2); // PreToolUse and PostToolUse
    expect(wrapToolCall).toHaveBeenCalledTimes(1);
    offTool();
    await runTool(engine, call, () => ({ output: "ok" }));
    expect(wrapToolCall).toHaveBeenCalledTimes(1);
  });
});
