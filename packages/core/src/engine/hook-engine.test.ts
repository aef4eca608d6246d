import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "../audit/audit.js";
import { HookError } from "../base/hook-error.js";
import { createEvent } from "../events/create-event.js";
import type { PreToolUseEvent } from "../events/event-schemas.js";
import { addContext, block, modify, retry, skip } from "../merge/hook-response.js";
import { HookEngine } from "./hook-engine.js";

const bash = (command: string, sessionId = "s1"): PreToolUseEvent =>
  createEvent("PreToolUse", { sessionId, tool: "Bash", args: { command } });

function thrown(fn: () => unknown): HookError {
  try {
    fn();
  } catch (error) {
    if (HookError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a HookError");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("HookEngine.register", () => {
  it("returns a handle whose unregister and dispose remove the hook", () => {
    const engine = new HookEngine();
    const a = engine.register({ event: "PreToolUse", handler: () => undefined });
    expect(engine.size()).toBe(1);
    expect(a.unregister()).toBe(true);
    expect(a.unregister()).toBe(false);
    expect(engine.size()).toBe(0);
    {
      using _b = engine.register({ event: "Stop", handler: () => undefined });
      expect(engine.size("Stop")).toBe(1);
    }
    expect(engine.size("Stop")).toBe(0);
  });

  it("unregisters when the registration's signal aborts, and not at all when it already has", () => {
    const engine = new HookEngine();
    const controller = new AbortController();
    engine.register({ event: "Stop", handler: () => undefined, signal: controller.signal });
    expect(engine.size()).toBe(1);
    controller.abort();
    expect(engine.size()).toBe(0);
    const handle = engine.register({
      event: "Stop",
      handler: () => undefined,
      signal: AbortSignal.abort(),
    });
    expect(engine.size()).toBe(0);
    expect(handle.unregister()).toBe(false);
  });

  it.each<[unknown, string]>([
    [{ event: "PreToolUse", handler: 42 }, "registration.handler: expected a function, got 42"],
    [
      { event: "PreToolUse", handler: () => 0, timeoutMs: -5 },
      "registration.timeoutMs: expected a positive number, got -5",
    ],
    [{ event: "PreToolUse", handler: () => 0, timeoutMs: 2 ** 31 }, "registration.timeoutMs"],
    [
      { event: "PreToolUse", handler: () => 0, timeout: 500 },
      "registration.timeout: renamed to timeoutMs",
    ],
    [
      { name: "n", events: ["Stop"], execute: () => 0, timeout: 500 },
      "registration.timeout: renamed to timeoutMs",
    ],
    [{ event: "PreToolUse", handler: () => 0, priority: Number.NaN }, "registration.priority"],
    // A matcher field at the top level would otherwise be dropped, and the hook match every call.
    [{ event: "PreToolUse", handler: () => 0, commandPattern: "^rm " }, "commandPattern"],
    [{ name: "n", events: ["Stop"], execute: () => 0, handler: () => 0 }, "handler"],
    [
      { event: "PreToolUse", handler: () => 0, failBehavior: "explode" },
      'registration.failBehavior: expected one of "continue", "block", got "explode"',
    ],
    [
      { event: "PreToolUse", handler: () => 0, matcher: { tool: "Bash", bogus: 1 } },
      "registration.matcher",
    ],
    [{ handler: () => 0 }, "registration.event: is required"],
    [null, "registration: expected an object"],
    ["PreToolUse", "registration: expected an object"],
  ])("rejects %j with a HookError naming the field", (input, message) => {
    const error = thrown(() => new HookEngine().register(input as never));
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain(message);
  });

  it("rejects unknown event names and invalid patterns with their own codes", () => {
    const engine = new HookEngine();
    const unknown = thrown(() =>
      engine.register({ event: "PreToolUze" as never, handler: () => undefined }),
    );
    expect(unknown.code).toBe("UNKNOWN_EVENT");
    expect(unknown.message).toBe(
      'registration.event: unknown event name "PreToolUze" (did you mean "PreToolUse"?)',
    );
    const regex = thrown(() =>
      engine.register({ event: "PreToolUse", matcher: "Bash(", handler: () => undefined }),
    );
    expect(regex.code).toBe("INVALID_PATTERN");
    expect(regex.message).toContain("Bash(");
    const cmd = thrown(() =>
      engine.register({
        event: "PreToolUse",
        matcher: { commandPattern: "[" },
        handler: () => undefined,
      }),
    );
    expect(cmd.path).toEqual(["registration", "matcher", "commandPattern"]);
    expect(engine.size()).toBe(0);
  });

  it("accepts the ToolError alias and other spellings for the canonical event", () => {
    const engine = new HookEngine();
    engine.register({ event: "ToolError", handler: (e) => void e.error });
    engine.register({ event: "pre_tool_use" as never, handler: () => undefined });
    expect(
      engine
        .list()
        .map((h) => h.event)
        .sort(),
    ).toEqual(["PostToolUseFailure", "PreToolUse"]);
  });

  it("enforces maxHooksPerEvent and maxTotalHooks with LIMIT_EXCEEDED, all or nothing", () => {
    const engine = new HookEngine({ maxHooksPerEvent: 2, maxTotalHooks: 3 });
    engine.register({ event: "Stop", handler: () => undefined });
    engine.register({ event: "Stop", handler: () => undefined });
    expect(thrown(() => engine.register({ event: "Stop", handler: () => undefined })).code).toBe(
      "LIMIT_EXCEEDED",
    );
    engine.register({ event: "SessionEnd", handler: () => undefined });
    const total = thrown(() =>
      engine.register({ event: "SessionStart", handler: () => undefined }),
    );
    expect(total.code).toBe("LIMIT_EXCEEDED");
    expect(total.message).toContain("maxTotalHooks");
    // a multi-event hook that would cross the limit registers nothing
    const wide = new HookEngine({ maxTotalHooks: 2 });
    expect(() =>
      wide.register({
        name: "x",
        events: ["Stop", "SessionEnd", "SessionStart"],
        execute: () => undefined,
      }),
    ).toThrow(HookError);
    expect(wide.size()).toBe(0);
  });

  it("refuses a duplicate id", () => {
    const engine = new HookEngine();
    engine.register({ id: "a", event: "Stop", handler: () => undefined });
    expect(
      thrown(() => engine.register({ id: "a", event: "Stop", handler: () => undefined })).message,
    ).toContain('"a"');
  });

  it("registers a hook object of the hooks-system design for several events behind one handle", async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    const handle = engine.register({
      name: "logger",
      id: "log",
      events: ["PreToolUse", "PostToolUse"],
      matcher: "Bash",
      execute: (event) => void seen.push(event.eventType),
    });
    expect(handle.ids).toEqual(["log:PreToolUse", "log:PostToolUse"]);
    await engine.fire(bash("ls"));
    await engine.fire(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool: "Bash",
        args: {},
        result: { success: true, output: "", duration: 1 },
      }),
    );
    await engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Read", args: {} }));
    expect(seen).toEqual(["PreToolUse", "PostToolUse"]);
    handle.unregister();
    expect(engine.size()).toBe(0);
  });

  it("refuses one event listed twice under two spellings, registering nothing", () => {
    const engine = new HookEngine();
    expect(() =>
      engine.register({
        name: "twice",
        id: "twice",
        events: ["PreToolUse", "Stop", "pre_tool_use" as "PreToolUse"],
        execute: () => undefined,
      }),
    ).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        path: ["registration", "events", 2],
      }),
    );
    expect(engine.size()).toBe(0);
  });

  it("refuses a name matcher on an event with nothing to match, and object matchers off tool events", () => {
    const engine = new HookEngine();
    expect(
      thrown(() => engine.register({ event: "Stop", matcher: "Bash", handler: () => undefined }))
        .code,
    ).toBe("INVALID_CONFIG");
    expect(
      thrown(() =>
        engine.register({
          event: "SessionStart",
          matcher: { tool: "x" },
          handler: () => undefined,
        }),
      ).code,
    ).toBe("INVALID_CONFIG");
    expect(() =>
      engine.register({ event: "Stop", matcher: "*", handler: () => undefined }),
    ).not.toThrow();
  });
});

describe("HookEngine.fire", () => {
  it("answers continue with the same event when nothing matches", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", matcher: "Write", handler: () => block("no") });
    const event = bash("ls");
    const result = await engine.fire(event);
    expect(result.action).toBe("continue");
    expect(result.event).toBe(event);
    expect(result.outcomes).toEqual([]);
  });

  it("rejects an unknown event type with UNKNOWN_EVENT, hooks or not", async () => {
    const engine = new HookEngine();
    await expect(engine.fire({ eventType: "Nope" } as never)).rejects.toMatchObject({
      code: "UNKNOWN_EVENT",
    });
    await expect(engine.fire(null as never)).rejects.toMatchObject({ code: "UNKNOWN_EVENT" });
  });

  it("runs hooks in priority order (lower first), ties in registration order", async () => {
    const engine = new HookEngine({ mode: "sequential" });
    const order: string[] = [];
    const hook = (name: string, priority?: number) =>
      engine.register({
        event: "Stop",
        name,
        ...(priority !== undefined ? { priority } : {}),
        handler: () => void order.push(name),
      });
    hook("c", 10);
    hook("a", -1);
    hook("b1");
    hook("b2");
    const result = await engine.fire(
      createEvent("Stop", { sessionId: "s", stopHookActive: false }),
    );
    expect(order).toEqual(["a", "b1", "b2", "c"]);
    expect(result.outcomes.map((o) => o.name)).toEqual(["a", "b1", "b2", "c"]);
  });

  it("merges by execution order, not by which hook finished first", async () => {
    const engine = new HookEngine();
    const gates: (() => void)[] = [];
    const later = (response: unknown) => () => new Promise((r) => gates.push(() => r(response)));
    engine.register({ event: "PreToolUse", priority: 1, handler: later(block("first")) as never });
    engine.register({ event: "PreToolUse", priority: 2, handler: later(block("second")) as never });
    const pending = engine.fire(bash("x"));
    await Promise.resolve();
    gates[1]!();
    gates[0]!();
    const result = await pending;
    expect(result.reason).toBe("first");
  });

  it("starts parallel hooks at once; sequential hooks see the event as modified so far", async () => {
    const parallel = new HookEngine();
    let running = 0;
    let peak = 0;
    for (let i = 0; i < 3; i++) {
      parallel.register({
        event: "Stop",
        handler: async () => {
          running++;
          peak = Math.max(peak, running);
          await Promise.resolve();
          running--;
        },
      });
    }
    await parallel.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    expect(peak).toBe(3);

    const sequential = new HookEngine({ mode: "sequential" });
    sequential.register({
      event: "PreToolUse",
      handler: () => modify({ args: { command: "ls -la" } }),
    });
    sequential.register({
      event: "PreToolUse",
      handler: (e) => modify({ args: { command: `${String(e.args.command)} | head` } }),
    });
    const result = await sequential.fire(bash("ls"));
    expect(result.event.args.command).toBe("ls -la | head");
  });

  it("stops a sequential run at a block and reports the rest as cancelled", async () => {
    const engine = new HookEngine({ mode: "sequential" });
    const ran: number[] = [];
    engine.register({ event: "PreToolUse", handler: () => void ran.push(1) });
    engine.register({
      event: "PreToolUse",
      handler: () => {
        ran.push(2);
        return block("stop here");
      },
    });
    engine.register({ event: "PreToolUse", handler: () => void ran.push(3) });
    const result = await engine.fire(bash("x"));
    expect(ran).toEqual([1, 2]);
    expect(result.action).toBe("block");
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok", "ok", "cancelled"]);
  });

  it("applies two hooks' patches to different arguments, later wins on the same one, and reports the conflict", async () => {
    const engine = new HookEngine();
    engine.register({
      id: "t",
      event: "PreToolUse",
      handler: () => modify({ args: { timeout: 1000 } }),
    });
    engine.register({
      id: "c1",
      event: "PreToolUse",
      handler: () => modify({ args: { command: "one" } }),
    });
    engine.register({
      id: "c2",
      event: "PreToolUse",
      handler: () => modify({ args: { command: "two" } }),
    });
    const result = await engine.fire(bash("zero"));
    expect(result.event.args).toEqual({ command: "two", timeout: 1000 });
    expect(result.modified).toBe(true);
    expect(result.conflicts).toEqual([{ path: "args.command", hookIds: ["c1", "c2"] }]);
  });

  it("treats a patch to a field the event does not allow as that hook's failure", async () => {
    const engine = new HookEngine();
    engine.register({ id: "bad", event: "PreToolUse", handler: () => modify({ tool: "Read" }) });
    engine.register({
      id: "strict",
      event: "PreToolUse",
      failBehavior: "block",
      handler: () => modify({ sessionId: "other" }),
    });
    const result = await engine.fire(bash("ls"));
    expect(result.event.tool).toBe("Bash");
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      action: "continue",
      error: { code: "INVALID_MODIFICATION" },
    });
    expect(result.outcomes[0]!.error!.message).toContain("modified.tool");
    expect(result.action).toBe("block");
    expect(result.reason).toContain("strict");
  });

  it("validates patched args against the host's tool schema", async () => {
    const schema = {
      safeParse: (v: unknown) =>
        typeof (v as { command?: unknown }).command === "string"
          ? ({ success: true } as const)
          : ({ success: false, error: new Error("command must be a string") } as const),
    };
    const engine = new HookEngine({ toolSchemas: { Bash: schema as never } });
    engine.register({ event: "PreToolUse", handler: () => modify({ args: { command: 42 } }) });
    const result = await engine.fire(bash("ls"));
    expect(result.event.args.command).toBe("ls");
    expect(result.outcomes[0]!.status).toBe("failed");
  });

  it("never crashes on a handler that throws, rejects, returns garbage or blocks without reason", async () => {
    const engine = new HookEngine();
    engine.register({
      name: "throws",
      event: "PreToolUse",
      handler: () => {
        throw new Error("boom");
      },
    });
    engine.register({
      name: "rejects",
      event: "PreToolUse",
      handler: () => Promise.reject(new TypeError("nope")),
    });
    engine.register({ name: "garbage", event: "PreToolUse", handler: () => 42 as never });
    engine.register({
      name: "bad-action",
      event: "PreToolUse",
      handler: () => ({ action: "explode" }) as never,
    });
    engine.register({
      name: "no-reason",
      event: "PreToolUse",
      handler: () => ({ action: "block" }) as never,
    });
    engine.register({
      name: "rejects-null",
      event: "PreToolUse",
      handler: () => Promise.reject(null),
    });
    const result = await engine.fire(bash("x"));
    expect(result.action).toBe("continue");
    expect(result.outcomes.map((o) => [o.name, o.status, o.error?.code])).toEqual([
      ["throws", "failed", "HANDLER_FAILED"],
      ["rejects", "failed", "HANDLER_FAILED"],
      ["garbage", "failed", "INVALID_OUTPUT"],
      ["bad-action", "failed", "INVALID_OUTPUT"],
      ["no-reason", "failed", "INVALID_OUTPUT"],
      ["rejects-null", "failed", "HANDLER_FAILED"],
    ]);
    expect(result.outcomes[4]!.error!.message).toContain("reason");
  });

  it("a failing hook with failBehavior block blocks, naming the hook and the failure", async () => {
    const engine = new HookEngine({ failBehavior: "block" });
    engine.register({
      name: "policy",
      event: "PreToolUse",
      handler: () => {
        throw new Error("policy server down");
      },
    });
    const result = await engine.fire(bash("x"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("hook policy failed: policy server down");
  });

  it("refuses the old defaultTimeout spelling instead of ignoring it", () => {
    const error = thrown(() => new HookEngine({ defaultTimeout: 100 } as never));
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toBe("options.defaultTimeout: renamed to defaultTimeoutMs");
    expect(new HookEngine({ defaultTimeoutMs: 100 }).defaultTimeoutMs).toBe(100);
  });

  it("times out a hook that never settles, aborts its signal, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine({ defaultTimeoutMs: 1000 });
    let signal: AbortSignal | undefined;
    engine.register({
      name: "slow",
      event: "PreToolUse",
      failBehavior: "block",
      handler: (_e, ctx) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    engine.register({
      name: "quick",
      event: "PreToolUse",
      priority: -1,
      timeoutMs: 50,
      handler: async () => modify({ args: { a: 1 } }),
    });
    const pending = engine.fire(bash("x"));
    await vi.advanceTimersByTimeAsync(999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(signal?.aborted).toBe(true);
    expect((signal!.reason as HookError).code).toBe("TIMEOUT");
    expect(result.action).toBe("block");
    expect(result.reason).toBe("hook slow timed out: no answer within 1000 ms");
    expect(result.event.args.a).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(engine.list().find((h) => h.name === "slow")!.stats).toMatchObject({
      runs: 1,
      timeouts: 1,
    });
  });

  it("uses injected timers", async () => {
    const pending: { fn: () => void; ms: number }[] = [];
    const timers = {
      setTimeout: (fn: () => void, ms: number) => pending.push({ fn, ms }),
      clearTimeout: () => undefined,
      now: () => 0,
    };
    const engine = new HookEngine({ timers, defaultTimeoutMs: 123 });
    engine.register({ event: "Stop", handler: () => new Promise(() => undefined) });
    const result = engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    await Promise.resolve();
    expect(pending.map((p) => p.ms)).toEqual([123]);
    pending[0]!.fn();
    expect((await result).outcomes[0]!.status).toBe("timeout");
  });

  it("runs async hooks fire-and-forget: never awaited, never blocking", async () => {
    const engine = new HookEngine();
    let release!: () => void;
    let finished = false;
    engine.register({
      event: "PreToolUse",
      async: true,
      handler: () =>
        new Promise((r) => {
          release = () => {
            finished = true;
            r(block("too late"));
          };
        }),
    });
    const result = await engine.fire(bash("x"));
    expect(result.action).toBe("continue");
    expect(result.outcomes[0]!.status).toBe("async");
    expect(finished).toBe(false);
    release();
  });

  it("runs a once hook at most once, even for concurrent firings", async () => {
    const engine = new HookEngine();
    let calls = 0;
    engine.register({ event: "Stop", once: true, handler: async () => void calls++ });
    const stop = () => engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    await Promise.all([stop(), stop(), stop()]);
    expect(calls).toBe(1);
    expect(engine.size()).toBe(0);
  });

  it("answers continue without running anything when disabled", async () => {
    const engine = new HookEngine({ enabled: false });
    let ran = false;
    engine.register({ event: "PreToolUse", handler: () => void (ran = true) });
    expect((await engine.fire(bash("x"))).action).toBe("continue");
    expect(ran).toBe(false);
    engine.enabled = true;
    await engine.fire(bash("x"));
    expect(ran).toBe(true);
  });

  it("rejects with ABORTED when the firing's signal aborts, and aborts pending hooks", async () => {
    const engine = new HookEngine();
    let hookSignal: AbortSignal | undefined;
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => {
        hookSignal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    const controller = new AbortController();
    const pending = engine.fire(bash("x"), { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new Error("user pressed ctrl-c"));
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    expect(hookSignal?.aborted).toBe(true);
  });

  it("a block on an event that cannot block is a warning, not a block", async () => {
    const engine = new HookEngine();
    engine.register({ event: "SessionEnd", handler: () => block("too late to block") });
    const result = await engine.fire(
      createEvent("SessionEnd", { sessionId: "s", reason: "other" }),
    );
    expect(result.action).toBe("continue");
    expect(result.warnings[0]).toContain("cannot be blocked");
    expect(result.feedback).toBeUndefined();
  });

  // Claude Code's hooks reference, "PostToolUse decision control": `decision: "block"` prompts
  // Claude with the `reason`; the tool already ran.
  it("a block on PostToolUse or PostToolUseFailure is feedback for the model, every hook's", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PostToolUse", handler: () => block("lint failed: 3 errors") });
    engine.register({ event: "PostToolUse", handler: () => addContext("ran in /w") });
    engine.register({ event: "PostToolUse", handler: () => block("tests are red") });
    engine.register({ event: "PostToolUseFailure", handler: () => block("try --force") });
    const result = await engine.fire(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool: "Bash",
        args: {},
        result: { success: true, output: "", duration: 0 },
      }),
    );
    expect(result.action).toBe("continue");
    expect(result.feedback).toBe("lint failed: 3 errors\ntests are red");
    expect(result.additionalContext).toBe("ran in /w");
    expect(result.warnings).toEqual([]);
    const failed = await engine.fire(
      createEvent("PostToolUseFailure", { sessionId: "s", tool: "Bash", args: {}, error: "x" }),
    );
    expect(failed.feedback).toBe("try --force");
  });

  it("retry beats continue, block beats retry, skip ends the fold", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", priority: 1, handler: () => retry(100) });
    engine.register({ event: "PreToolUse", priority: 2, handler: () => retry(300) });
    expect(await engine.fire(bash("x"))).toMatchObject({ action: "retry", retryDelay: 300 });
    engine.register({ event: "PreToolUse", priority: 3, handler: () => skip() });
    engine.register({
      event: "PreToolUse",
      priority: 4,
      handler: () => block("ignored after skip"),
    });
    const result = await engine.fire(bash("x"));
    expect(result.action).toBe("retry");
    expect(result.outcomes[3]).toMatchObject({ action: "block", ignored: true });
  });

  it("a matcher predicate that throws is a non-match reported as a warning", async () => {
    const engine = new HookEngine();
    const warnings: string[] = [];
    engine.on("warning", (w) => warnings.push(w.message));
    engine.register({
      event: "PreToolUse",
      matcher: () => {
        throw new Error("bad predicate");
      },
      handler: () => block("never"),
    });
    expect((await engine.fire(bash("x"))).action).toBe("continue");
    expect(warnings).toEqual(["matcher threw: bad predicate"]);
  });

  it("matches object matchers on tool, path glob and command pattern", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: { tool: "Write", pathPattern: "*.env" },
      handler: () => block("env"),
    });
    engine.register({
      event: "PreToolUse",
      matcher: { commandPattern: "rm\\s+-rf" },
      handler: () => block("rm"),
    });
    const fire = (tool: string, args: Record<string, unknown>) =>
      engine.fire(createEvent("PreToolUse", { sessionId: "s", tool, args }));
    expect((await fire("Write", { file_path: "deploy/.env" })).reason).toBe("env");
    expect((await fire("Write", { file_path: "prod.env" })).reason).toBe("env");
    expect((await fire("Write", { file_path: "env.ts" })).action).toBe("continue");
    expect((await fire("Read", { file_path: ".env" })).action).toBe("continue");
    expect((await fire("Bash", { command: "sudo rm  -rf /tmp" })).reason).toBe("rm");
    expect((await fire("Bash", { command: 42 })).action).toBe("continue");
  });
});

describe("HookEngine audit", () => {
  it("emits registered, blocked, modified and failed at info; started and completed only at verbose", async () => {
    const engine = new HookEngine();
    const records: AuditEvent[] = [];
    const off = engine.on("*", (r) => records.push(r));
    engine.register({ id: "m", event: "PreToolUse", handler: () => modify({ args: { x: 1 } }) });
    engine.register({
      id: "f",
      event: "PreToolUse",
      handler: () => {
        throw new Error("f");
      },
    });
    engine.register({ id: "b", event: "PreToolUse", handler: () => block("b") });
    await engine.fire(bash("x"));
    // in execution order: m's patch, f's failure, then the merged block
    expect(records.map((r) => r.type)).toEqual([
      "registered",
      "registered",
      "registered",
      "modified",
      "failed",
      "blocked",
    ]);
    records.length = 0;
    engine.auditLevel = "verbose";
    await engine.fire(bash("x"));
    expect(records.filter((r) => r.type === "started")).toHaveLength(3);
    expect(records.filter((r) => r.type === "completed")).toHaveLength(2);
    records.length = 0;
    engine.auditLevel = "off";
    await engine.fire(bash("x"));
    expect(records).toEqual([]);
    off();
    engine.auditLevel = "info";
    engine.unregister("m");
    expect(records).toEqual([]);
  });

  it("subscriptions end with their signal or with using", () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    const controller = new AbortController();
    engine.on("registered", (r) => seen.push(r.hookId), { signal: controller.signal });
    {
      using _sub = engine.on("registered", (r) => seen.push(`using:${r.hookId}`));
      engine.register({ id: "a", event: "Stop", handler: () => undefined });
    }
    controller.abort();
    engine.register({ id: "b", event: "Stop", handler: () => undefined });
    expect(seen).toEqual(["a", "using:a"]);
  });

  it("refuses an unknown audit level and bad engine options with the field named", () => {
    expect(() => {
      new HookEngine().auditLevel = "loud" as never;
    }).toThrow(/auditLevel/);
    expect(thrown(() => new HookEngine({ maxTotalHooks: 0 })).message).toContain(
      "options.maxTotalHooks",
    );
    expect(thrown(() => new HookEngine({ mode: "random" as never })).message).toContain(
      "options.mode",
    );
  });

  it("lists hooks in execution order with their settings and counters", async () => {
    const engine = new HookEngine();
    engine.register({
      id: "late",
      event: "PreToolUse",
      priority: 5,
      matcher: "Bash|Write",
      handler: () => block("x"),
    });
    engine.register({
      id: "early",
      event: "PreToolUse",
      priority: -5,
      source: "test",
      handler: () => undefined,
    });
    await engine.fire(bash("x"));
    const [first, second] = engine.list();
    expect(first).toMatchObject({
      id: "early",
      priority: -5,
      source: "test",
      matcher: "*",
      stats: { runs: 1 },
    });
    expect(second).toMatchObject({
      id: "late",
      matcher: "Bash|Write",
      stats: { runs: 1, blocks: 1 },
    });
    expect(engine.list({ source: "test" }).map((h) => h.id)).toEqual(["early"]);
    expect(engine.clear("test")).toBe(1);
    expect(engine.list().map((h) => h.id)).toEqual(["late"]);
  });
});

describe("HookEngine with huge and hostile input", () => {
  it("refuses a megabyte name or matcher with a short message naming the field", () => {
    const engine = new HookEngine();
    const huge = "x".repeat(1_000_000);
    const name = thrown(() =>
      engine.register({ event: "Stop", name: huge, handler: () => undefined }),
    );
    expect(name.message).toContain(
      "registration.name: expected at most 256 characters, got 1000000",
    );
    expect(name.message.length).toBeLessThan(200);
    const matcher = thrown(() =>
      engine.register({ event: "PreToolUse", matcher: huge, handler: () => undefined }),
    );
    expect(matcher.path).toEqual(["registration", "matcher"]);
    expect(engine.size()).toBe(0);
  });

  it("passes a huge event through untouched and merges a huge patch", async () => {
    const engine = new HookEngine();
    const big = "y".repeat(5_000_000);
    engine.register({
      event: "PreToolUse",
      handler: (e) => modify({ args: { command: `${String(e.args.command)}!` } }),
    });
    const result = await engine.fire(bash(big));
    expect(String(result.event.args.command).length).toBe(5_000_001);
  });

  it("treats a thenable that throws from then() as that hook's failure", async () => {
    const engine = new HookEngine();
    const hostile = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this test.
      then() {
        throw new Error("then exploded");
      },
    };
    engine.register({ event: "Stop", handler: () => hostile as never });
    const result = await engine.fire(
      createEvent("Stop", { sessionId: "s", stopHookActive: false }),
    );
    expect(result.outcomes[0]).toMatchObject({ status: "failed" });
  });
});

/** `{ a: { a: … 1 } }`, `depth` levels deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("HookEngine with deep and prototype-bending answers", () => {
  it.each([100_000, 10_000])(
    "fails a hook whose modified is %i levels deep, and its fail-closed behaviour blocks",
    async (depth) => {
      const engine = new HookEngine();
      engine.register({
        id: "deep",
        event: "PreToolUse",
        failBehavior: "block",
        handler: () => modify({ args: nested(depth) }),
      });
      const result = await engine.fire(bash("ls"));
      expect(result.action).toBe("block");
      expect(result.outcomes[0]).toMatchObject({
        status: "failed",
        error: { code: "LIMIT_EXCEEDED" },
      });
      expect(result.outcomes[0]!.error!.message).toMatch(
        /^response\.modified: nested more than 64 levels/,
      );
      expect(result.event.args).toEqual({ command: "ls" });
    },
  );

  it("a deep modified from a fail-open hook is that hook's failure; the others still count", async () => {
    const engine = new HookEngine({ mode: "sequential" });
    engine.register({ event: "PreToolUse", handler: () => modify({ args: nested(50_000) }) });
    engine.register({ event: "PreToolUse", handler: () => modify({ args: { cwd: "/x" } }) });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.outcomes.map((o) => o.status)).toEqual(["failed", "ok"]);
    expect(result.event.args).toEqual({ command: "ls", cwd: "/x" });
  });

  it.each(["__proto__", "constructor", "prototype"])(
    "refuses %s as a key of modified, at the top level and nested",
    async (key) => {
      const engine = new HookEngine();
      const top = JSON.parse(`{"${key}": {"polluted": true}}`);
      const deep = JSON.parse(`{"args": {"${key}": {"polluted": true}}}`);
      engine.register({ event: "PreToolUse", failBehavior: "block", handler: () => modify(top) });
      const first = await engine.fire(bash("ls"));
      expect(first.action).toBe("block");
      expect(first.outcomes[0]!.error!.message).toContain(`modified.${key}`);
      engine.clear();
      engine.register({ event: "PreToolUse", failBehavior: "block", handler: () => modify(deep) });
      const second = await engine.fire(bash("ls"));
      expect(second.action).toBe("block");
      expect(second.outcomes[0]!.error!.message).toContain(`modified.args.${key}`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it("a tool schema that throws is a failure of the hook whose patch it checked", async () => {
    const explode = () => {
      throw new RangeError("Maximum call stack size exceeded");
    };
    for (const failBehavior of ["block", "continue"] as const) {
      const engine = new HookEngine({ toolSchemas: { Bash: { safeParse: explode } } });
      engine.register({
        event: "PreToolUse",
        failBehavior,
        handler: () => modify({ args: { x: 1 } }),
      });
      const result = await engine.fire(bash("ls"));
      expect(result.action).toBe(failBehavior === "block" ? "block" : "continue");
      expect(result.outcomes[0]).toMatchObject({ status: "failed", error: { code: "INTERNAL" } });
      expect(result.event.args).toEqual({ command: "ls" });
    }
  });

  it("an audit listener that throws changes no result and silences no other listener", async () => {
    const reported: unknown[] = [];
    vi.stubGlobal("reportError", (error: unknown) => reported.push(error));
    try {
      const engine = new HookEngine();
      const seen: string[] = [];
      engine.on("*", () => {
        throw new Error("listener bug");
      });
      engine.on("*", (record) => seen.push(record.type));
      engine.register({ event: "PreToolUse", handler: () => block("no") });
      const result = await engine.fire(bash("ls"));
      expect(result.action).toBe("block");
      expect(seen).toEqual(["registered", "blocked"]);
      expect(reported).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("fails a hook whose answer is a cycle, a Proxy that throws, or a getter that throws", async () => {
    const cycle: Record<string, unknown> = { command: "x" };
    cycle.self = cycle;
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    const getter = {
      action: "continue",
      get modified() {
        throw new Error("getter");
      },
    };
    const answers: unknown[] = [modify({ args: cycle }), trap, getter, modify({ args: trap })];
    for (const answer of answers) {
      const engine = new HookEngine();
      engine.register({
        event: "PreToolUse",
        failBehavior: "block",
        handler: () => answer as never,
      });
      engine.register({
        event: "PreToolUse",
        failBehavior: "block",
        handler: async () => answer as never,
      });
      const result = await engine.fire(bash("ls"));
      expect(result.action).toBe("block");
      expect(result.outcomes.map((o) => o.status)).toEqual(["failed", "failed"]);
    }
  });
});

describe("HookEngine with hostile async hooks", () => {
  it("a fire-and-forget thenable that throws from then() is reported, not thrown", async () => {
    const engine = new HookEngine();
    const failed = new Promise((resolve) => engine.on("failed", resolve));
    const hostile = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this test.
      then() {
        throw new Error("then exploded");
      },
    };
    engine.register({ event: "Stop", async: true, handler: () => hostile as never });
    const result = await engine.fire(
      createEvent("Stop", { sessionId: "s", stopHookActive: false }),
    );
    expect(result.outcomes[0]!.status).toBe("async");
    expect(await failed).toMatchObject({ type: "failed", message: "then exploded" });
  });
});

describe("HookEngine.warn", () => {
  it("puts an adapter's warning in the audit stream, unless the level is off", () => {
    const engine = new HookEngine();
    const seen: unknown[] = [];
    engine.on("warning", (w) => seen.push(w));
    engine.warn("late answer", { hookId: "h", eventId: "e" });
    expect(seen).toEqual([
      expect.objectContaining({
        type: "warning",
        message: "late answer",
        hookId: "h",
        eventId: "e",
      }),
    ]);
    engine.auditLevel = "off";
    engine.warn("ignored");
    expect(seen).toHaveLength(1);
  });
});
