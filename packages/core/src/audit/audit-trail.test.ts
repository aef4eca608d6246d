import { afterEach, describe, expect, it, vi } from "vitest";
import { HookError } from "../base/hook-error.js";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import { block, modify } from "../merge/hook-response.js";
import type { AuditEvent } from "./audit.js";
import { AuditTrail } from "./audit-trail.js";

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

/** A real engine with a hook that blocks `rm` and one that adds a timeout to every command. */
function guardedEngine(auditLevel: "info" | "verbose" = "info"): HookEngine {
  const engine = new HookEngine({ auditLevel });
  engine.register({
    id: "perm-1",
    event: "PreToolUse",
    matcher: { tool: "Bash", commandPattern: "^rm\\b" },
    handler: () => block("rm is not allowed"),
  });
  engine.register({
    id: "limits",
    name: "time limit",
    event: "PreToolUse",
    handler: () => modify({ args: { timeout: 30_000 } }),
  });
  return engine;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("AuditTrail on a HookEngine", () => {
  it("keeps what the engine did, oldest first", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const trail = new AuditTrail(engine);
    engine.register({
      id: "perm-1",
      event: "PreToolUse",
      matcher: { tool: "Bash", commandPattern: "^rm\\b" },
      handler: () => block("rm is not allowed"),
    });
    const event = bash("rm -rf /");
    expect((await engine.fire(event)).action).toBe("block");
    engine.unregister("perm-1");

    expect(trail.records.map((r) => r.type)).toEqual(["registered", "blocked", "unregistered"]);
    expect(trail.records[1]).toMatchObject({
      type: "blocked",
      hookId: "perm-1",
      event: "PreToolUse",
      eventId: event.eventId,
      reason: "rm is not allowed",
    });
    expect(trail.dropped).toBe(0);
    expect(trail.limit).toBe(500);
  });

  it("keeps every run at the verbose level", async () => {
    const engine = guardedEngine("verbose");
    const trail = new AuditTrail(engine);
    await engine.fire(bash("ls"));
    // Only the time-limit hook matches `ls`; the firing's summary comes last.
    expect(trail.records.map((r) => r.type)).toEqual(["started", "completed", "modified", "fired"]);
    expect(trail.records[2]).toMatchObject({ hookId: "limits", paths: ["args.timeout"] });
  });

  it("drops the oldest records past its limit, and counts them", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine, { limit: 3 });
    for (let i = 1; i <= 7; i++) engine.warn(`w${i}`);
    expect(trail.records.map((r) => (r as { message: string }).message)).toEqual([
      "w5",
      "w6",
      "w7",
    ]);
    expect(trail.dropped).toBe(4);
  });

  it("hands out a frozen snapshot that later records do not change", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine, { limit: 2 });
    engine.warn("a");
    const before = trail.records;
    expect(trail.records).toBe(before); // nothing new: the same copy, no work per read
    engine.warn("b");
    engine.warn("c");
    expect(before.map((r) => (r as { message: string }).message)).toEqual(["a"]);
    expect(Object.isFrozen(trail.records)).toBe(true);
    expect(() => (trail.records as AuditEvent[]).push(before[0]!)).toThrow(TypeError);
  });

  it("keeps only the types asked for", async () => {
    const engine = guardedEngine();
    const trail = new AuditTrail(engine, { types: ["blocked", "modified"], limit: 2 });
    await engine.fire(bash("ls"));
    await engine.fire(bash("rm x"));
    await engine.fire(bash("ls"));
    // registered records were never kept, so they neither show nor count as dropped.
    expect(trail.records.map((r) => r.type)).toEqual(["blocked", "modified"]);
    expect(trail.dropped).toBe(1);
  });

  it("forgets everything on clear(), and goes on listening", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine, { limit: 2 });
    for (const m of ["a", "b", "c"]) engine.warn(m);
    trail.clear();
    expect(trail.records).toEqual([]);
    expect(trail.dropped).toBe(0);
    engine.warn("d");
    expect(trail.records.map((r) => (r as { message: string }).message)).toEqual(["d"]);
  });

  it("writes JSON Lines that read back to the records, one line each", async () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    expect(trail.toJSONL()).toBe("");
    engine.register({ id: "h", event: "Stop", handler: () => block("line one\nline two") });
    await engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    const text = trail.toJSONL();
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => JSON.parse(line))).toEqual(trail.records);
  });
});

describe("AuditTrail.subscribe", () => {
  it("calls listeners with each record after keeping it, until they stop", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    const seen: [string, number][] = [];
    const stop = trail.subscribe((record) => {
      seen.push([(record as { message: string }).message, trail.records.length]);
    });
    engine.warn("one");
    stop();
    stop(); // idempotent
    engine.warn("two");
    expect(seen).toEqual([["one", 1]]);
    expect(trail.records).toHaveLength(2);
  });

  it("treats one function subscribed twice as two subscriptions", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    const listener = vi.fn();
    const first = trail.subscribe(listener);
    trail.subscribe(listener);
    engine.warn("a");
    first();
    engine.warn("b");
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it("stops with an AbortSignal and with `using`", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    const bySignal = vi.fn();
    const controller = new AbortController();
    trail.subscribe(bySignal, { signal: controller.signal });
    const byScope = vi.fn();
    {
      using _subscription = trail.subscribe(byScope);
      engine.warn("a");
    }
    controller.abort();
    engine.warn("b");
    trail.subscribe(bySignal, { signal: controller.signal }); // already aborted: never called
    engine.warn("c");
    expect(bySignal).toHaveBeenCalledTimes(1);
    expect(byScope).toHaveBeenCalledTimes(1);
  });

  it("reports a throwing listener with reportError, and the rest goes on", async () => {
    const reported: unknown[] = [];
    vi.stubGlobal("reportError", (error: unknown) => reported.push(error));
    const engine = guardedEngine();
    const trail = new AuditTrail(engine);
    const boom = new Error("listener bug");
    trail.subscribe(() => {
      throw boom;
    });
    const after = vi.fn();
    trail.subscribe(after);

    const result = await engine.fire(bash("rm -rf /"));
    // The engine's firing was not broken by the listener: its answer stands.
    expect(result).toMatchObject({ action: "block", reason: "rm is not allowed" });
    await engine.fire(bash("ls"));
    expect(trail.records.map((r) => r.type)).toEqual(["blocked", "modified"]);
    expect(after).toHaveBeenCalledTimes(2);
    expect(reported).toEqual([boom, boom]);
  });

  it("falls back to console.error where there is no reportError (Node)", () => {
    vi.stubGlobal("reportError", undefined);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    trail.subscribe(() => {
      throw new Error("listener bug");
    });
    engine.warn("a");
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ message: "listener bug" }));
    expect(trail.records).toHaveLength(1);
  });

  it("names a listener that is not a function", () => {
    const trail = new AuditTrail(new HookEngine());
    expect(() => trail.subscribe("log" as never)).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", path: ["listener"] }),
    );
  });
});

describe("AuditTrail.close", () => {
  it("stops listening to the source and keeps what it has; idempotent", () => {
    const engine = new HookEngine();
    const trail = new AuditTrail(engine);
    const listener = vi.fn();
    trail.subscribe(listener);
    engine.warn("kept");
    expect(trail.listening).toBe(true);
    trail.close();
    trail.close();
    expect(trail.listening).toBe(false);
    engine.warn("not heard");
    expect(trail.records.map((r) => (r as { message: string }).message)).toEqual(["kept"]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("closes at the end of a `using` scope", () => {
    const engine = new HookEngine();
    let outside: AuditTrail;
    {
      using trail = new AuditTrail(engine);
      outside = trail;
      engine.warn("in scope");
    }
    engine.warn("out of scope");
    expect(outside.records).toHaveLength(1);
    expect(outside.listening).toBe(false);
  });
});

describe("AuditTrail options", () => {
  const engine = new HookEngine();
  const fails = (options: unknown, path: (string | number)[], message: RegExp) => {
    let error: unknown;
    try {
      new AuditTrail(engine, options as never);
    } catch (caught) {
      error = caught;
    }
    expect(HookError.is(error, "INVALID_CONFIG"), JSON.stringify(options)).toBe(true);
    expect((error as HookError).path).toEqual(path);
    expect((error as HookError).message).toMatch(message);
  };

  it("names a bad limit", () => {
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 100_001, "10", null]) {
      fails(
        { limit },
        ["options", "limit"],
        /^options\.limit: expected an integer from 1 to 100000/,
      );
    }
    expect(new AuditTrail(engine, { limit: 1 }).limit).toBe(1);
    expect(new AuditTrail(engine, { limit: 100_000 }).limit).toBe(100_000);
  });

  it("names a bad types list, and the entry that is not a record type", () => {
    fails(
      { types: "blocked" },
      ["options", "types"],
      /^options\.types: expected a non-empty array/,
    );
    fails({ types: [] }, ["options", "types"], /non-empty/);
    fails({ types: ["blocked", "nope"] }, ["options", "types", 1], /^options\.types\.1: .*"nope"/);
    fails({ types: [42] }, ["options", "types", 0], /got 42/);
    // A huge hostile list is answered from its first bad entry, its value cut short.
    // One string shared by every entry: 100,000 copies took 100 MB and most of the file's time.
    const huge = new Array<string>(100_000).fill("x".repeat(1000));
    fails({ types: huge }, ["options", "types", 0], /^.{0,400}$/);
  });

  it("names unknown options and options that are not an object", () => {
    fails({ limt: 10 }, ["options", "limt"], /unknown option/);
    fails(null, ["options"], /^options: expected an object, got null/);
    fails([500], ["options"], /expected an object/);
  });

  it("names a source that is not an engine or a client", () => {
    expect(() => new AuditTrail({} as never)).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", path: ["source"] }),
    );
  });
});
