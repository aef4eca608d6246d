import { describe, expect, it, vi } from "vitest";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import { Emitter } from "./emitter.js";

describe("Emitter", () => {
  it("subscribes nothing for a signal that is already aborted", () => {
    const events = new Emitter<{ tick: number }>();
    const heard: number[] = [];
    const stop = events.on("tick", (n) => heard.push(n), { signal: AbortSignal.abort() });
    events.emit("tick", 1);
    expect(heard).toEqual([]);
    expect(events.listenerCount()).toBe(0);
    stop();
    stop[Symbol.dispose]();
  });

  it("removes its abort listener when unsubscribed, so a long-lived signal keeps nothing", () => {
    const events = new Emitter<{ tick: number }>();
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    }) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      remove(...args);
    }) as typeof remove;
    for (let i = 0; i < 3; i++) events.on("tick", () => {}, { signal })();
    expect([added, removed]).toEqual([3, 3]);
    expect(events.listenerCount("tick")).toBe(0);
  });

  it("stops on abort, on a call, and at the end of a using block; twice is harmless", () => {
    const events = new Emitter<{ tick: number }>();
    const heard: string[] = [];
    const controller = new AbortController();
    events.on("tick", (n) => heard.push(`signal ${n}`), { signal: controller.signal });
    const stop = events.on("tick", (n) => heard.push(`call ${n}`));
    {
      using _scoped = events.on("tick", (n) => heard.push(`using ${n}`));
      events.emit("tick", 1);
    }
    stop();
    stop();
    controller.abort();
    expect(events.emit("tick", 2)).toBe(false);
    expect(heard).toEqual(["signal 1", "call 1", "using 1"]);
  });

  it("keeps a throwing listener from the emitter and from the listeners after it, and reports it", () => {
    const reported: unknown[] = [];
    vi.stubGlobal("reportError", (error: unknown) => reported.push(error));
    try {
      const events = new Emitter<{ tick: number }>();
      const heard: number[] = [];
      events.on("tick", () => {
        throw new Error("listener bug");
      });
      events.on("tick", (n) => heard.push(n));
      expect(() => events.emit("tick", 7)).not.toThrow();
      expect(heard).toEqual([7]);
      expect(reported).toEqual([expect.objectContaining({ message: "listener bug" })]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("counts the same function subscribed twice as two subscriptions", () => {
    const events = new Emitter<{ tick: number }>();
    const heard: number[] = [];
    const listener = (n: number) => heard.push(n);
    const first = events.on("tick", listener);
    events.on("tick", listener);
    first();
    events.emit("tick", 3);
    expect(heard).toEqual([3]);
  });
});

describe("HookEngine.onAudit with an aborted signal", () => {
  it("hears nothing when the signal was aborted before subscribing", async () => {
    const engine = new HookEngine({ auditLevel: "verbose" });
    const heard: string[] = [];
    engine.onAudit((record) => heard.push(record.type), { signal: AbortSignal.abort() });
    engine.on("*", (record) => heard.push(`on:${record.type}`), { signal: AbortSignal.abort() });
    engine.register({ event: "Stop", handler: () => undefined });
    await engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    expect(heard).toEqual([]);
  });
});

describe("fired records", () => {
  it("summarise every firing, with or without hooks, and keep the live objects out of JSON", async () => {
    const engine = new HookEngine({ auditLevel: "verbose" });
    const fired: import("../audit/audit.js").AuditEventOf<"fired">[] = [];
    engine.on("fired", (record) => fired.push(record));
    engine.register({
      event: "Stop",
      id: "keep-going",
      handler: () => ({ action: "block", reason: "not yet" }),
    });
    const stop = createEvent("Stop", { sessionId: "s", stopHookActive: false });
    const result = await engine.fire(stop);
    await engine.fire(createEvent("SessionEnd", { sessionId: "s", reason: "exit" }));
    expect(fired.map((r) => [r.event, r.hookIds, r.action, r.reason])).toEqual([
      ["Stop", ["keep-going"], "block", "not yet"],
      ["SessionEnd", [], "continue", undefined],
    ]);
    expect(fired[0]!.input).toBe(stop);
    expect(fired[0]!.result).toBe(result);
    expect(fired[0]!.duration).toBeGreaterThanOrEqual(0);
    const json = JSON.parse(JSON.stringify(fired[0]));
    expect(json).not.toHaveProperty("input");
    expect(json).not.toHaveProperty("result");
    expect(json).toMatchObject({ type: "fired", eventId: stop.eventId, modified: false });
  });

  it("are not built at info level", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const heard: string[] = [];
    engine.onAudit((record) => heard.push(record.type));
    await engine.fire(createEvent("SessionEnd", { sessionId: "s", reason: "exit" }));
    expect(heard).toEqual([]);
  });
});
