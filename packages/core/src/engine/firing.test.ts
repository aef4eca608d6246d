import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ManualTimers } from "../../../../test-support/manual-timers.ts";
import type { AuditEvent } from "../audit/audit.js";
import type { HookError } from "../base/hook-error.js";
import { createEvent } from "../events/create-event.js";
import type { PreToolUseEvent } from "../events/event-schemas.js";
import { block, modify } from "../merge/hook-response.js";
import { HookEngine } from "./hook-engine.js";

const bash = (command: string): PreToolUseEvent =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

/** A promise the test settles. */
function gate<T = undefined>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe("HookEngine timers", () => {
  it("starts no timer for hooks that answer within the turn", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    for (let i = 0; i < 5; i++) engine.register({ event: "PreToolUse", handler: async () => {} });
    engine.register({ event: "PreToolUse", handler: () => undefined });
    const result = await engine.fire(bash("ls"));
    expect(result.outcomes.map((o) => o.status)).toEqual(Array(6).fill("ok"));
    expect(t.started).toBe(0);
  });

  it("times a hook still running after the turn with its own timeout, and clears it on the answer", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    const answer = gate();
    engine.register({ event: "PreToolUse", timeoutMs: 700, handler: () => answer.promise });
    engine.register({ event: "PreToolUse", handler: async () => {} });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    expect(t.pendingDelays).toEqual([700]);
    t.advance(699);
    answer.open(undefined);
    const result = await pending;
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
    expect(t.pending).toBe(0);
  });

  it("reports each hook's duration from the firing's start to its answer", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    const first = gate();
    const second = gate();
    engine.register({ event: "PreToolUse", handler: () => first.promise });
    engine.register({ event: "PreToolUse", handler: () => second.promise });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(30);
    first.open(undefined);
    await Promise.resolve();
    await Promise.resolve();
    t.advance(45);
    second.open(undefined);
    const result = await pending;
    expect(result.outcomes.map((o) => o.duration)).toEqual([30, 75]);
  });

  it("reads the clock once for the hooks that answer within a parallel pass, not once per hook", async () => {
    const t = new ManualTimers();
    let reads = 0;
    const now = t.now;
    t.now = () => {
      reads++;
      return now();
    };
    const engine = new HookEngine({ timers: t });
    for (let i = 0; i < 10; i++) engine.register({ event: "PreToolUse", handler: () => undefined });
    reads = 0;
    const result = await engine.fire(bash("ls"));
    expect(result.outcomes).toHaveLength(10);
    // The firing's start and the end of the pass.
    expect(reads).toBe(2);
  });

  it("times a hook that answers within a parallel pass from the firing's start to the end of the pass", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    const later = gate();
    engine.register({
      event: "PreToolUse",
      handler: () => {
        t.advance(5);
        return undefined;
      },
    });
    engine.register({ event: "PreToolUse", handler: () => later.promise });
    engine.register({
      event: "PreToolUse",
      async: true,
      handler: () => {
        t.advance(7);
        throw new Error("fire and forget");
      },
    });
    engine.register({
      event: "PreToolUse",
      handler: () => {
        t.advance(3);
        throw new Error("sync failure");
      },
    });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(20);
    later.open(undefined);
    const result = await pending;
    expect(result.outcomes.map((o) => [o.status, o.duration])).toEqual([
      ["ok", 15],
      ["ok", 35],
      ["async", 15],
      ["failed", 15],
    ]);
  });

  it("keeps the place, name and duration of a continue answered within a pass among answers that say more", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    const later = gate();
    const pass = (ms: number, answer: unknown) => () => {
      t.advance(ms);
      return answer as undefined;
    };
    engine.register({ id: "a", name: "first", event: "PreToolUse", handler: pass(2, undefined) });
    engine.register({ id: "b", event: "PreToolUse", handler: pass(3, block("no")) });
    engine.register({ id: "c", name: "third", event: "PreToolUse", handler: () => later.promise });
    engine.register({
      id: "d",
      event: "PreToolUse",
      failBehavior: "block",
      handler: pass(4, { action: "continue" }),
    });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(10);
    later.open(undefined);
    const result = await pending;
    expect(result).toMatchObject({ action: "block", blockedBy: "b", reason: "no" });
    expect(result.outcomes.map((o) => [o.hookId, o.name, o.status, o.action, o.duration])).toEqual([
      ["a", "first", "ok", "continue", 9],
      ["b", undefined, "ok", "block", 9],
      ["c", "third", "ok", "continue", 19],
      ["d", undefined, "ok", "continue", 9],
    ]);
    expect(engine.list().map((h) => [h.id, h.stats.runs, h.stats.blocks])).toEqual([
      ["a", 1, 0],
      ["b", 1, 1],
      ["c", 1, 0],
      ["d", 1, 0],
    ]);
  });

  it("gives every continue answered within a pass its own outcome, in order, with no extra fields", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    for (const id of ["x", "y"]) {
      engine.register({
        id,
        ...(id === "y" ? { name: "why" } : {}),
        event: "PreToolUse",
        handler: () => {
          t.advance(1);
          return undefined;
        },
      });
    }
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.outcomes).toStrictEqual([
      { hookId: "x", status: "ok", action: "continue", duration: 2 },
      { hookId: "y", status: "ok", action: "continue", duration: 2, name: "why" },
    ]);
  });

  it("in sequential mode starts each hook's clock when the one before it answered", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t, mode: "sequential" });
    const first = gate();
    const second = gate();
    engine.register({ event: "PreToolUse", handler: () => first.promise });
    engine.register({ event: "PreToolUse", handler: () => second.promise });
    const pending = engine.fire(bash("ls"));
    t.advance(10);
    first.open(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    t.advance(25);
    second.open(undefined);
    const result = await pending;
    expect(result.outcomes.map((o) => o.duration)).toEqual([10, 25]);
  });
});

describe("HookContext.onAbort", () => {
  it("tells the handler about its timeout with the TIMEOUT error, once, without an AbortController", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t, defaultTimeoutMs: 100 });
    const reasons: unknown[] = [];
    let lateReason: unknown;
    let stopped = 0;
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => {
        ctx.onAbort?.((reason) => reasons.push(reason));
        const stop = ctx.onAbort?.(() => stopped++);
        stop?.();
        // After the abort, a new listener hears at once and a new signal is already aborted.
        setTimeout(() => {
          ctx.onAbort?.((reason) => (lateReason = reason));
        }, 0);
        return new Promise(() => undefined);
      },
    });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(100);
    const result = await pending;
    expect(result.outcomes[0]!.status).toBe("timeout");
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as HookError).code).toBe("TIMEOUT");
    expect(stopped).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(lateReason).toBe(reasons[0]);
  });

  it("hands out an aborted signal when asked for one after the abort", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t, defaultTimeoutMs: 50 });
    let ctx: { signal: AbortSignal } | undefined;
    engine.register({
      event: "PreToolUse",
      handler: (_e, c) => {
        ctx = c;
        return new Promise(() => undefined);
      },
    });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(50);
    await pending;
    expect(ctx!.signal.aborted).toBe(true);
    expect((ctx!.signal.reason as HookError).code).toBe("TIMEOUT");
  });

  it("passes the firing signal's reason when the firing is aborted", async () => {
    const engine = new HookEngine();
    let heard: unknown;
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => {
        ctx.onAbort?.((reason) => (heard = reason));
        return new Promise(() => undefined);
      },
    });
    const controller = new AbortController();
    const pending = engine.fire(bash("ls"), { signal: controller.signal });
    const why = new Error("user pressed ctrl-c");
    controller.abort(why);
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", cause: why });
    expect(heard).toBe(why);
  });

  it("a listener that throws does not stop the timeout; the audit stream gets a warning", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t, defaultTimeoutMs: 20 });
    const warnings: AuditEvent[] = [];
    engine.on("warning", (w) => warnings.push(w));
    let signalAborted = false;
    engine.register({
      id: "cleanup-bug",
      event: "PreToolUse",
      handler: (_e, ctx) => {
        ctx.onAbort?.(() => {
          throw new Error("cleanup exploded");
        });
        ctx.signal.addEventListener("abort", () => (signalAborted = true));
        return new Promise(() => undefined);
      },
    });
    const pending = engine.fire(bash("ls"));
    await Promise.resolve();
    t.advance(20);
    expect((await pending).outcomes[0]!.status).toBe("timeout");
    expect(signalAborted).toBe(true);
    expect(warnings).toEqual([
      expect.objectContaining({
        hookId: "cleanup-bug",
        message: "onAbort threw: cleanup exploded",
      }),
    ]);
  });
});

describe("HookEngine aborts", () => {
  it("a sequential firing that is aborted starts no further hook", async () => {
    const engine = new HookEngine({ mode: "sequential" });
    const ran: string[] = [];
    engine.register({
      event: "PreToolUse",
      handler: () => {
        ran.push("first");
        return new Promise(() => undefined);
      },
    });
    engine.register({ event: "PreToolUse", handler: () => void ran.push("second") });
    const controller = new AbortController();
    const pending = engine.fire(bash("ls"), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual(["first"]);
  });

  it("a handler that aborts its own firing rejects it and aborts the others", async () => {
    const engine = new HookEngine();
    const controller = new AbortController();
    let otherAborted = false;
    engine.register({
      event: "PreToolUse",
      handler: (_e, ctx) => {
        ctx.onAbort?.(() => (otherAborted = true));
        return new Promise(() => undefined);
      },
    });
    engine.register({ event: "PreToolUse", handler: () => void controller.abort() });
    await expect(engine.fire(bash("ls"), { signal: controller.signal })).rejects.toMatchObject({
      code: "ABORTED",
    });
    expect(otherAborted).toBe(true);
  });

  it("a fire-and-forget hook that runs past its timeout is aborted and reported", async () => {
    const t = new ManualTimers();
    const engine = new HookEngine({ timers: t });
    const records: AuditEvent[] = [];
    engine.on("timed_out", (r) => records.push(r));
    let aborted: unknown;
    engine.register({
      id: "bg",
      event: "PreToolUse",
      async: true,
      timeoutMs: 30,
      handler: (_e, ctx) => {
        ctx.onAbort?.((reason) => (aborted = reason));
        return new Promise(() => undefined);
      },
    });
    const result = await engine.fire(bash("ls"));
    expect(result.outcomes[0]!.status).toBe("async");
    t.advance(30);
    expect((aborted as HookError).code).toBe("TIMEOUT");
    expect(records).toEqual([expect.objectContaining({ hookId: "bg", timeout: 30 })]);
    expect(engine.list()[0]!.stats.timeouts).toBe(1);
  });
});

/** `depth` levels of objects or arrays, built without recursion. */
function deep(depth: number, array: boolean): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value };
  return value;
}

const throwing = () => {
  throw new Error("hostile");
};
const trap = new Proxy({}, { get: throwing, ownKeys: throwing, getPrototypeOf: throwing });

/** Answers a hostile hook may give: deep, huge, cyclic, self-destructing or prototype-bending. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.integer({ min: 60, max: 3000 }), fc.boolean()).map(([d, a]) => deep(d, a)),
  fc.constant("z".repeat(1_000_000)),
  fc.constant(trap),
  fc.constant(
    (() => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      return cycle;
    })(),
  ),
  fc.constant({
    get x() {
      return throwing();
    },
  }),
  fc.constantFrom(
    JSON.parse('{"__proto__": {"polluted": true}}'),
    JSON.parse('{"a": {"constructor": {"prototype": {"polluted": true}}}}'),
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const hostileAnswer: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue.map((v) => modify({ args: v as Record<string, unknown> })),
  hostileValue.map((v) => ({ action: "continue", modified: v })),
  hostileValue.map((v) => ({ action: "block", reason: v })),
  hostileValue,
  fc.constant(
    new Proxy(
      { action: "continue" },
      { get: (_t, key) => (key === "then" ? undefined : throwing()) },
    ),
  ),
  fc.constant({
    action: "continue",
    get modified() {
      return throwing();
    },
  }),
  fc.constant(undefined),
  fc.constant({ action: "block", reason: "no" }),
);

describe("HookEngine.fire under hostile answers", () => {
  it("always resolves, and a fail-closed hook that failed always blocks", async () => {
    const hook = fc.record({
      answer: hostileAnswer,
      failBehavior: fc.constantFrom("continue" as const, "block" as const),
      how: fc.constantFrom("return", "resolve", "throw", "reject"),
    });
    // Every record reaches a listener that throws: each is reported, none reaches fire().
    let reported = 0;
    vi.stubGlobal("reportError", () => reported++);
    await fc
      .assert(
        fc.asyncProperty(
          fc.array(hook, { minLength: 1, maxLength: 3 }),
          fc.constantFrom("parallel" as const, "sequential" as const),
          async (hooks, mode) => {
            const engine = new HookEngine({ mode });
            engine.on("*", throwing);
            hooks.forEach(({ answer, failBehavior, how }, i) => {
              engine.register({
                id: `h${i}`,
                event: "PreToolUse",
                failBehavior,
                handler: (() => {
                  if (how === "return") return answer;
                  if (how === "resolve") return Promise.resolve(answer);
                  if (how === "throw") throw answer;
                  return Promise.reject(answer);
                }) as never,
              });
            });
            const result = await engine.fire(bash("ls"));
            const failedClosed = result.outcomes.some(
              (o, i) => o.status === "failed" && hooks[i]!.failBehavior === "block",
            );
            if (failedClosed) expect(result.action).toBe("block");
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          },
        ),
        { numRuns: 150 },
      )
      .finally(() => vi.unstubAllGlobals());
    expect(reported).toBeGreaterThan(0);
  });
});

describe("a firing whose processing fails", () => {
  /** Timers whose clock breaks: a bug in a service the host injected. */
  const brokenClock = () => {
    const timers = new ManualTimers();
    timers.now = () => {
      throw new Error("clock broke");
    };
    return timers;
  };

  it("blocks when a fail-closed hook ran, and says why", async () => {
    const engine = new HookEngine({ timers: brokenClock() });
    engine.register({ id: "open", event: "PreToolUse", handler: () => undefined });
    engine.register({
      id: "closed",
      event: "PreToolUse",
      failBehavior: "block",
      handler: () => undefined,
    });
    const result = await engine.fire(bash("ls"));
    expect(result).toMatchObject({
      action: "block",
      blockedBy: "closed",
      reason: "hook processing failed: clock broke",
      warnings: ["hook processing failed: clock broke"],
    });
    expect(result.outcomes.map((o) => [o.hookId, o.status, o.action])).toEqual([
      ["open", "failed", "continue"],
      ["closed", "failed", "block"],
    ]);
  });

  it("continues with the event unchanged when every hook was fail-open, or the event cannot block", async () => {
    const engine = new HookEngine({ timers: brokenClock() });
    engine.register({ event: "PreToolUse", handler: () => modify({ args: { command: "x" } }) });
    const result = await engine.fire(bash("ls"));
    expect(result).toMatchObject({ action: "continue", modified: false });
    expect(result.event.args).toEqual({ command: "ls" });
    const post = new HookEngine({ timers: brokenClock() });
    post.register({ event: "SessionEnd", failBehavior: "block", handler: () => undefined });
    const ended = await post.fire(createEvent("SessionEnd", { sessionId: "s", reason: "exit" }));
    expect(ended.action).toBe("continue");
  });
});
