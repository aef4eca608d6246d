import {
  createEvent,
  HookEngine,
  type HookEngineOptions,
  type HookError,
  type HookEventMessage,
} from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { ManualTimers } from "../../../../test-support/manual-timers.ts";
import { HookHub, type HookHubOptions } from "./hook-hub.js";
import type { HubEvent } from "./hub-events.js";
import type { HookEventSink } from "./remote-client.js";

function setup(
  options: Omit<HookHubOptions, "engine"> = {},
  engineOptions: HookEngineOptions = {},
) {
  const timers = new ManualTimers();
  const engine = new HookEngine(engineOptions);
  const hub = new HookHub({ engine, timers, ...options });
  const events: HubEvent[] = [];
  hub.on("*", (e) => events.push(e));
  return { engine, hub, timers, events };
}

/** A sink that records what the hub sends and lets the test answer. */
function sink(options: { tooBig?: boolean } = {}) {
  const sent: HookEventMessage[] = [];
  let closedWith: HookError | undefined;
  let onSend: ((m: HookEventMessage) => void) | undefined;
  const s: HookEventSink = {
    send(message) {
      if (options.tooBig && !message.cancel)
        throw Object.assign(new Error("too big"), { code: "LIMIT_EXCEEDED", path: [] });
      sent.push(message);
      onSend?.(message);
    },
    close(error) {
      closedWith = error;
    },
  };
  return {
    sink: s,
    sent,
    closed: () => closedWith,
    next: () => new Promise<HookEventMessage>((resolve) => (onSend = resolve)),
  };
}

const bash = (command = "ls") =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

function thrown(fn: () => unknown): HookError {
  try {
    fn();
  } catch (error) {
    return error as HookError;
  }
  throw new Error("did not throw");
}

describe("HookHub registration", () => {
  it("registers on the engine as remote:<client>, idempotently for the same definition", () => {
    const { engine, hub } = setup();
    const request = {
      eventType: "pre_tool_use",
      hookId: "h1",
      matcher: { tool: "Bash" },
      config: { priority: 2 },
    };
    expect(hub.register("c1", request)).toEqual({ hookId: "h1" });
    expect(hub.register("c1", request)).toEqual({ hookId: "h1" });
    expect(engine.list()).toMatchObject([
      {
        id: "c1/h1",
        event: "PreToolUse",
        source: "remote:c1",
        priority: 2,
        matcher: '{"tool":"Bash"}',
      },
    ]);
    const conflict = thrown(() => hub.register("c1", { ...request, config: { priority: 3 } }));
    expect(conflict.message).toContain("already registered with another definition");
    // Another client may use the same hook id: ids are per client.
    expect(hub.register("c2", request)).toEqual({ hookId: "h1" });
    expect(engine.size()).toBe(2);
  });

  it("makes an id when the client gives none", () => {
    const { hub } = setup();
    expect(hub.register("c1", { eventType: "Stop" }).hookId).toMatch(/^[0-9a-f-]{36}$/);
    expect(hub.register("c1", { eventType: "Stop", hookId: "" }).hookId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses bad requests with errors that name the field", () => {
    const { hub } = setup();
    expect(thrown(() => hub.register("c1", { eventType: "Explode" }))).toMatchObject({
      code: "UNKNOWN_EVENT",
      message: 'RegisterHookRequest.eventType: unknown event name "Explode"',
    });
    expect(
      thrown(() =>
        hub.register("c1", { eventType: "PreToolUse", matcher: { commandPattern: "([" } }),
      ),
    ).toMatchObject({ code: "INVALID_PATTERN" });
    expect(
      thrown(() =>
        hub.register("c1", { eventType: "PreToolUse", matcher: { pattern: "Bash", tool: "Bash" } }),
      ).message,
    ).toContain("either pattern or tool/pathPattern/commandPattern");
    expect(
      thrown(() => hub.register("c1", { eventType: "Stop", matcher: { pattern: "x" } })).message,
    ).toContain("Stop has nothing to match a name against");
    expect(
      thrown(() => hub.register("c1", { eventType: "Stop", config: { timeoutMs: -1 } })).message,
    ).toContain("RegisterHookRequest.config.timeoutMs");
    expect(thrown(() => hub.register("c1", { eventType: "Stop", hookId: "a/b" })).path).toEqual([
      "RegisterHookRequest",
      "hookId",
    ]);
    expect(thrown(() => hub.register("c1", "not an object")).code).toBe("INVALID_REGISTRATION");
    expect(thrown(() => hub.register("c1", { eventType: "x".repeat(10_000) })).message).toContain(
      "at most 128 characters",
    );
  });

  it("enforces per-client limits, the engine's total, and a client cap", () => {
    const { hub } = setup(
      { maxHooksPerClient: 3, maxHooksPerEventPerClient: 2, maxClients: 2 },
      { maxTotalHooks: 4 },
    );
    hub.register("c1", { eventType: "Stop" });
    hub.register("c1", { eventType: "Stop" });
    expect(thrown(() => hub.register("c1", { eventType: "Stop" })).message).toContain(
      "maxHooksPerEventPerClient: client c1 may register at most 2 hooks for Stop",
    );
    hub.register("c1", { eventType: "PreToolUse" });
    expect(thrown(() => hub.register("c1", { eventType: "PostToolUse" })).message).toContain(
      "maxHooksPerClient",
    );
    hub.register("c2", { eventType: "PreToolUse" });
    expect(thrown(() => hub.register("c2", { eventType: "PreToolUse" }))).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxTotalHooks"),
    });
    expect(thrown(() => hub.register("c3", { eventType: "Stop" })).message).toContain("maxClients");
  });

  it("rate-limits registrations per client and says when to try again", () => {
    const { hub, timers } = setup({ registrationRate: { burst: 2, perSecond: 4 } });
    hub.register("c1", { eventType: "Stop" });
    hub.register("c1", { eventType: "Stop" });
    const limited = thrown(() => hub.register("c1", { eventType: "PreToolUse" }));
    expect(limited.code).toBe("LIMIT_EXCEEDED");
    expect(limited.message).toContain("try again in 250 ms");
    expect(hub.register("c2", { eventType: "Stop" }).hookId).toBeTruthy();
    timers.advance(250);
    expect(hub.register("c1", { eventType: "PreToolUse" }).hookId).toBeTruthy();
  });

  it("lets a client list and remove its own hooks only", () => {
    const { engine, hub } = setup();
    engine.register({ event: "Stop", id: "host-hook", handler: () => undefined });
    hub.register("c1", { eventType: "Stop", hookId: "mine" });
    hub.register("c2", { eventType: "PreToolUse", hookId: "theirs" });
    expect(hub.list("c1", {}).hooks.map((h) => h.hookId)).toEqual(["mine"]);
    expect(hub.list("c1", { eventType: "PreToolUse" }).hooks).toEqual([]);
    expect(thrown(() => hub.list("c1", { eventType: "Nope" })).code).toBe("UNKNOWN_EVENT");
    expect(thrown(() => hub.unregister("c1", { hookId: "theirs" })).code).toBe("PERMISSION_DENIED");
    expect(thrown(() => hub.unregister("c1", { hookId: "host-hook" })).code).toBe(
      "PERMISSION_DENIED",
    );
    expect(thrown(() => hub.unregister("c1", { hookId: "ghost" })).code).toBe("NOT_FOUND");
    expect(hub.unregister("c1", { hookId: "mine" })).toEqual({ removed: true });
    expect(
      engine
        .list()
        .map((h) => h.id)
        .sort(),
    ).toEqual(["c2/theirs", "host-hook"]);
  });
});

describe("HookHub calls from a client it does not know", () => {
  it("lists nothing and finds nothing to remove, without making a client record or timer", () => {
    const { hub, timers } = setup({ maxClients: 1 });
    hub.register("c1", { eventType: "Stop", hookId: "mine" });
    const pending = timers.pending;
    expect(hub.list("stranger", {})).toEqual({ hooks: [] });
    expect(hub.list("stranger", { eventType: "Stop" })).toEqual({ hooks: [] });
    expect(thrown(() => hub.unregister("stranger", { hookId: "ghost" }))).toMatchObject({
      code: "NOT_FOUND",
      message: "UnregisterHookRequest.hookId: no hook ghost",
    });
    expect(thrown(() => hub.unregister("stranger", { hookId: "mine" }))).toMatchObject({
      code: "PERMISSION_DENIED",
      message: "UnregisterHookRequest.hookId: hook mine is not one of client stranger's hooks",
    });
    expect(hub.clients().map((c) => c.clientId)).toEqual(["c1"]);
    expect(timers.pending).toBe(pending);
    // Those calls took no client slot: the cap of one is still c1's alone.
    expect(thrown(() => hub.register("c2", { eventType: "Stop" })).message).toContain("maxClients");
  });

  it("still refuses them once the hub is closing", async () => {
    const { hub } = setup();
    await hub.close();
    expect(thrown(() => hub.list("stranger", {})).code).toBe("UNAVAILABLE");
    expect(thrown(() => hub.unregister("stranger", { hookId: "h" })).code).toBe("UNAVAILABLE");
  });
});

describe("HookHub firings", () => {
  it("sends a matching firing with its deadline, and resolves with the client's answer", async () => {
    const { engine, hub } = setup({}, { defaultTimeout: 2000 });
    hub.register("c1", { eventType: "PreToolUse", hookId: "h", matcher: { tool: "Bash" } });
    const line = sink();
    const stream = hub.attach("c1", line.sink);
    expect(stream.resumed).toBe(true);
    const event = bash();
    const sent = line.next();
    const before = Date.now();
    const firing = engine.fire(event);
    const message = await sent;
    expect(message).toMatchObject({
      hookId: "h",
      eventId: event.eventId,
      eventType: "PreToolUse",
      sessionId: "s1",
    });
    expect(message.payload).toEqual(event);
    expect(message.deadlineMs).toBeGreaterThanOrEqual(before + 2000);
    stream.receive({ hookId: "h", eventId: event.eventId, action: "block", reason: "no" });
    expect(await firing).toMatchObject({ action: "block", reason: "no" });
    // Not matching: nothing is sent.
    await engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Read", args: {} }));
    expect(line.sent).toHaveLength(1);
  });

  it("fails at once while the client is away, with its fail behaviour", async () => {
    const { engine, hub } = setup();
    hub.register("c1", {
      eventType: "PreToolUse",
      config: { failBehavior: "block", name: "policy" },
    });
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.reason).toContain("remote hook policy of client c1: the client is disconnected");
  });

  it("sends a cancellation when the engine stops waiting", async () => {
    const timers = new ManualTimers();
    const { engine, hub } = setup({}, { timers });
    hub.register("c1", { eventType: "PreToolUse", hookId: "h", config: { timeoutMs: 100 } });
    const line = sink();
    hub.attach("c1", line.sink);
    const sent = line.next();
    const firing = engine.fire(bash());
    const message = await sent;
    const cancelled = line.next();
    timers.advance(100);
    expect((await firing).outcomes[0]?.status).toBe("timeout");
    expect(await cancelled).toMatchObject({
      hookId: "h",
      eventId: message.eventId,
      cancel: true,
      cancelReason: "no answer within 100 ms",
    });
  });

  it("throws away malformed, late and unknown answers, counts them, and says so", async () => {
    const { engine, hub, events } = setup();
    hub.register("c1", { eventType: "PreToolUse", hookId: "h" });
    const audited: string[] = [];
    engine.on("warning", (w) => audited.push(w.message));
    const line = sink();
    const stream = hub.attach("c1", line.sink);
    const sent = line.next();
    const firing = engine.fire(bash());
    const { eventId } = await sent;
    // Malformed, but it names a waiting firing: that firing fails.
    stream.receive({ hookId: "h", eventId, action: "block" });
    const result = await firing;
    expect(result.outcomes[0]).toMatchObject({ status: "failed" });
    expect(result.outcomes[0]?.error?.message).toContain("reason");
    // Late (nothing waits any more), unknown, and not even an object.
    stream.receive({ hookId: "h", eventId, action: "continue" });
    stream.receive({ hookId: "h", eventId: "never-sent", action: "continue" });
    stream.receive("garbage");
    stream.receive(
      { hookId: "h", eventId: "x" },
      Object.assign(new Error("modified: not JSON"), { code: "INVALID_OUTPUT", path: [] }) as never,
    );
    const warnings = events
      .filter((e) => e.type === "warning")
      .map((e) => (e as { message: string }).message);
    expect(warnings).toHaveLength(5);
    expect(warnings[1]).toContain("no firing waits for that answer");
    expect(warnings[3]).toContain("malformed HookResponse");
    // The same warnings reach the engine's audit stream, naming the client.
    expect(audited).toHaveLength(5);
    expect(audited[1]).toMatch(/^remote client c1: .*no firing waits for that answer/);
    // Four of the five named hook h: malformed, late, unknown event, undecodable.
    expect(hub.list("c1", {}).hooks[0]?.counters).toMatchObject({
      runs: 1,
      failures: 1,
      rejectedResponses: 4,
    });
  });

  it("fails a firing whose event is too large to send, instead of breaking the stream", async () => {
    const { engine, hub } = setup();
    hub.register("c1", { eventType: "PreToolUse" });
    hub.attach("c1", sink({ tooBig: true }).sink);
    const result = await engine.fire(bash("x".repeat(1000)));
    expect(result.outcomes[0]?.error?.code).toBe("LIMIT_EXCEEDED");
  });

  it("answers waiting firings when the stream drops, then removes the hooks after the window", async () => {
    const { engine, hub, timers, events } = setup({ reconnectWindowMs: 1000 });
    hub.register("c1", { eventType: "PreToolUse", hookId: "h" });
    const line = sink();
    const stream = hub.attach("c1", line.sink);
    const sent = line.next();
    const firing = engine.fire(bash());
    await sent;
    stream.detach("socket closed");
    expect((await firing).outcomes[0]?.error).toMatchObject({
      code: "UNAVAILABLE",
      message: "client c1 disconnected (socket closed)",
    });
    expect(events.at(-1)).toMatchObject({ type: "client_disconnected", failedFirings: 1 });
    const removed: string[] = [];
    engine.on("unregistered", (r) => removed.push(r.reason));
    timers.advance(999);
    expect(engine.size()).toBe(1);
    timers.advance(1);
    expect(engine.size()).toBe(0);
    expect(removed).toEqual(["client c1 did not reconnect within 1000 ms"]);
    expect(events.at(-1)).toMatchObject({
      type: "client_expired",
      clientId: "c1",
      removedHooks: 1,
    });
    expect(hub.clients()).toEqual([]);
  });

  it("resumes a client that comes back inside its window, and replaces an older stream", async () => {
    const { engine, hub, timers } = setup({ reconnectWindowMs: 1000 });
    hub.register("c1", { eventType: "PreToolUse", hookId: "h" });
    const first = sink();
    hub.attach("c1", first.sink).detach("gone");
    timers.advance(500);
    const second = sink();
    const again = hub.attach("c1", second.sink);
    expect(again.resumed).toBe(true);
    timers.advance(5000);
    expect(engine.size()).toBe(1);
    // A third stream of the same client takes over; the second is told why.
    const third = sink();
    const latest = hub.attach("c1", third.sink);
    expect(second.closed()?.message).toBe("replaced by a newer stream of the same client");
    again.detach("late close of the replaced stream");
    expect(hub.clients()).toMatchObject([{ clientId: "c1", connected: true }]);
    const sent = third.next();
    const firing = engine.fire(bash());
    const { eventId } = await sent;
    latest.receive({ hookId: "h", eventId, action: "skip" });
    expect((await firing).outcomes[0]?.action).toBe("skip");
  });

  it("drains on close: lets an answer arrive, then ends every stream", async () => {
    const { engine, hub } = setup();
    hub.register("c1", { eventType: "PreToolUse", hookId: "h" });
    const line = sink();
    const stream = hub.attach("c1", line.sink);
    const sent = line.next();
    const firing = engine.fire(bash());
    const { eventId } = await sent;
    const closing = hub.close();
    expect(engine.size()).toBe(0);
    stream.receive({ hookId: "h", eventId, action: "block", reason: "answered while draining" });
    await closing;
    expect((await firing).reason).toBe("answered while draining");
    expect(line.closed()?.message).toBe("the hook server is closing");
    expect(thrown(() => hub.register("c1", { eventType: "Stop" })).code).toBe("UNAVAILABLE");
  });
});
