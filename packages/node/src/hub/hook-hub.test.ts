import {
  createEvent,
  HookEngine,
  type HookEngineOptions,
  type HookError,
} from "@a3s-lab/hooks-core";
import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it, vi } from "vitest";
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

/** Open a hook stream for `clientId`: the credentials its later calls present, and the stream. */
function open(hub: HookHub, clientId: string, line = sink()) {
  const stream = hub.attach({ clientId }, line.sink);
  return { ...line, stream, caller: { clientId, clientSecret: stream.clientSecret } };
}

describe("HookHub events", () => {
  it("subscribes nothing for a signal already aborted, and stops on a later abort", () => {
    const { hub } = setup();
    const heard: string[] = [];
    hub.on("*", (e) => heard.push(`aborted:${e.type}`), { signal: AbortSignal.abort() });
    const controller = new AbortController();
    hub.on("client_connected", (e) => heard.push(`live:${e.type}`), { signal: controller.signal });
    open(hub, "a");
    controller.abort();
    open(hub, "b");
    expect(heard).toEqual(["live:client_connected"]);
  });
});

describe("HookHub registration", () => {
  it("registers on the engine as remote:<client>, idempotently for the same definition", () => {
    const { engine, hub } = setup();
    const c1 = open(hub, "c1");
    const c2 = open(hub, "c2");
    const request = {
      eventType: "pre_tool_use",
      hookId: "h1",
      matcher: { tool: "Bash" },
      config: { priority: 2 },
    };
    expect(hub.register(c1.caller, request)).toEqual({ hookId: "h1" });
    expect(hub.register(c1.caller, request)).toEqual({ hookId: "h1" });
    expect(engine.list()).toMatchObject([
      {
        id: expect.stringMatching(/^remote-[0-9a-f-]{36}$/),
        name: "h1",
        event: "PreToolUse",
        source: "remote:c1",
        priority: 2,
        matcher: '{"tool":"Bash"}',
      },
    ]);
    const conflict = thrown(() => hub.register(c1.caller, { ...request, config: { priority: 3 } }));
    expect(conflict.message).toContain("already registered with another definition");
    // Another client may use the same hook id: ids are per client.
    expect(hub.register(c2.caller, request)).toEqual({ hookId: "h1" });
    expect(engine.size()).toBe(2);
  });

  it("makes an id when the client gives none", () => {
    const { hub } = setup();
    const c1 = open(hub, "c1");
    expect(hub.register(c1.caller, { eventType: "Stop" }).hookId).toMatch(/^[0-9a-f-]{36}$/);
    expect(hub.register(c1.caller, { eventType: "Stop", hookId: "" }).hookId).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("refuses bad requests with errors that name the field", () => {
    const { hub } = setup();
    const c1 = open(hub, "c1");
    expect(thrown(() => hub.register(c1.caller, { eventType: "Explode" }))).toMatchObject({
      code: "UNKNOWN_EVENT",
      message: 'RegisterHookRequest.eventType: unknown event name "Explode"',
    });
    expect(
      thrown(() =>
        hub.register(c1.caller, { eventType: "PreToolUse", matcher: { commandPattern: "([" } }),
      ),
    ).toMatchObject({ code: "INVALID_PATTERN" });
    expect(
      thrown(() =>
        hub.register(c1.caller, {
          eventType: "PreToolUse",
          matcher: { pattern: "Bash", tool: "Bash" },
        }),
      ).message,
    ).toContain("either pattern or tool/pathPattern/commandPattern");
    expect(
      thrown(() => hub.register(c1.caller, { eventType: "Stop", matcher: { pattern: "x" } }))
        .message,
    ).toContain("Stop has nothing to match a name against");
    expect(
      thrown(() => hub.register(c1.caller, { eventType: "Stop", config: { timeoutMs: -1 } }))
        .message,
    ).toContain("RegisterHookRequest.config.timeoutMs");
    expect(
      thrown(() => hub.register(c1.caller, { eventType: "Stop", hookId: "a/b" })).path,
    ).toEqual(["RegisterHookRequest", "hookId"]);
    expect(thrown(() => hub.register(c1.caller, "not an object")).code).toBe("INVALID_CONFIG");
    expect(
      thrown(() => hub.register(c1.caller, { eventType: "x".repeat(10_000) })).message,
    ).toContain("at most 128 characters");
  });

  it("enforces per-client limits, the engine's total, and a client cap", () => {
    const { hub } = setup(
      { maxHooksPerClient: 3, maxHooksPerEventPerClient: 2, maxClients: 2 },
      { maxTotalHooks: 4 },
    );
    const c1 = open(hub, "c1");
    const c2 = open(hub, "c2");
    hub.register(c1.caller, { eventType: "Stop" });
    hub.register(c1.caller, { eventType: "Stop" });
    expect(thrown(() => hub.register(c1.caller, { eventType: "Stop" })).message).toContain(
      "maxHooksPerEventPerClient: a client may register at most 2 hooks for Stop",
    );
    hub.register(c1.caller, { eventType: "PreToolUse" });
    expect(thrown(() => hub.register(c1.caller, { eventType: "PostToolUse" })).message).toContain(
      "maxHooksPerClient",
    );
    hub.register(c2.caller, { eventType: "PreToolUse" });
    expect(thrown(() => hub.register(c2.caller, { eventType: "PreToolUse" }))).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxTotalHooks"),
    });
    expect(thrown(() => open(hub, "c3")).message).toContain("maxClients");
  });

  it("rate-limits registrations per client and says when to try again", () => {
    const { hub, timers } = setup({ registrationRate: { burst: 2, perSecond: 4 } });
    const c1 = open(hub, "c1");
    const c2 = open(hub, "c2");
    hub.register(c1.caller, { eventType: "Stop" });
    hub.register(c1.caller, { eventType: "Stop" });
    const limited = thrown(() => hub.register(c1.caller, { eventType: "PreToolUse" }));
    expect(limited.code).toBe("LIMIT_EXCEEDED");
    expect(limited.message).toContain("try again in 250 ms");
    expect(hub.register(c2.caller, { eventType: "Stop" }).hookId).toBeTruthy();
    timers.advance(250);
    expect(hub.register(c1.caller, { eventType: "PreToolUse" }).hookId).toBeTruthy();
  });

  it("lets a client list and remove its own hooks only", () => {
    const { engine, hub } = setup();
    const c1 = open(hub, "c1");
    const c2 = open(hub, "c2");
    engine.register({ event: "Stop", id: "host-hook", handler: () => undefined });
    hub.register(c1.caller, { eventType: "Stop", hookId: "mine" });
    hub.register(c2.caller, { eventType: "PreToolUse", hookId: "theirs" });
    expect(hub.list(c1.caller, {}).hooks.map((h) => h.hookId)).toEqual(["mine"]);
    expect(hub.list(c1.caller, { eventType: "PreToolUse" }).hooks).toEqual([]);
    expect(thrown(() => hub.list(c1.caller, { eventType: "Nope" })).code).toBe("UNKNOWN_EVENT");
    // Another client's hook, the host's, and none at all: the same answer, telling nothing.
    expect(hub.unregister(c1.caller, { hookId: "theirs" })).toEqual({ removed: false });
    expect(hub.unregister(c1.caller, { hookId: "host-hook" })).toEqual({ removed: false });
    expect(hub.unregister(c1.caller, { hookId: "ghost" })).toEqual({ removed: false });
    expect(hub.unregister(c1.caller, { hookId: "mine" })).toEqual({ removed: true });
    expect(engine.list().map((h) => h.name ?? h.id)).toEqual(["host-hook", "theirs"]);
  });
});

describe("HookHub client identity", () => {
  it("refuses hook calls for an id with no open stream, and makes no record for them", () => {
    const { hub, timers } = setup({ maxClients: 1 });
    const pending = timers.pending;
    const stranger = { clientId: "stranger", clientSecret: "made-up" };
    for (const call of [
      () => hub.register(stranger, { eventType: "Stop" }),
      () => hub.list(stranger, {}),
      () => hub.unregister(stranger, { hookId: "h" }),
    ]) {
      expect(thrown(call)).toMatchObject({
        code: "FAILED_PRECONDITION",
        message: expect.stringContaining("open the HookStream first"),
      });
    }
    expect(hub.clients()).toEqual([]);
    expect(timers.pending).toBe(pending);
    // Those calls took no client slot: the cap of one is still free.
    expect(open(hub, "c1").stream.resumed).toBe(false);
  });

  it("gives each new client a fresh 32-byte secret, and acts only for its holder", () => {
    const { engine, hub, events } = setup();
    const victim = open(hub, "victim");
    expect(victim.caller.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(open(hub, "other").caller.clientSecret).not.toBe(victim.caller.clientSecret);
    hub.register(victim.caller, { eventType: "PreToolUse", hookId: "guard" });
    for (const secret of [undefined, "", "wrong", `${victim.caller.clientSecret}x`]) {
      const thief = { clientId: "victim", clientSecret: secret };
      for (const call of [
        () => hub.attach(thief, sink().sink),
        () => hub.register(thief, { eventType: "Stop" }),
        () => hub.list(thief, {}),
        () => hub.unregister(thief, { hookId: "guard" }),
      ]) {
        expect(thrown(call)).toMatchObject({
          code: "UNAUTHENTICATED",
          path: ["x-a3s-client-secret"],
        });
      }
    }
    // Nothing changed: the victim's stream is still the one firings go to.
    expect(victim.closed()).toBeUndefined();
    expect(engine.size()).toBe(1);
    expect(events.filter((e) => e.type === "client_connected")).toHaveLength(2);
    expect(hub.list(victim.caller, {}).hooks.map((h) => h.hookId)).toEqual(["guard"]);
  });

  it("resumes with the same secret, and treats a stale secret after expiry as a new client", () => {
    const { hub, timers } = setup({ reconnectWindowMs: 1000 });
    const first = open(hub, "c1");
    hub.register(first.caller, { eventType: "Stop", hookId: "h" });
    first.stream.detach("gone");
    const again = hub.attach(first.caller, sink().sink);
    expect(again).toMatchObject({ resumed: true, clientSecret: first.caller.clientSecret });
    again.detach("gone again");
    timers.advance(1000);
    const fresh = hub.attach(first.caller, sink().sink);
    expect(fresh.resumed).toBe(false);
    expect(fresh.clientSecret).not.toBe(first.caller.clientSecret);
    expect(thrown(() => hub.list(first.caller, {})).code).toBe("UNAUTHENTICATED");
  });

  it("forgets a client that leaves with no hooks at once, freeing its slot", () => {
    const { hub, events } = setup({ maxClients: 1 });
    open(hub, "c1").stream.detach("gone");
    expect(hub.clients()).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: "client_expired",
      clientId: "c1",
      removedHooks: 0,
    });
    expect(open(hub, "c2").stream.resumed).toBe(false);
  });

  it("still refuses calls once the hub is closing", async () => {
    const { hub } = setup();
    const c1 = open(hub, "c1");
    await hub.close();
    expect(thrown(() => hub.list(c1.caller, {})).code).toBe("UNAVAILABLE");
    expect(thrown(() => hub.unregister(c1.caller, { hookId: "h" })).code).toBe("UNAVAILABLE");
    expect(thrown(() => open(hub, "c2")).code).toBe("UNAVAILABLE");
  });
});

describe("HookHub quotas", () => {
  it("keeps one client from taking every slot of an event, by default half of them", () => {
    const { hub } = setup();
    const greedy = open(hub, "greedy");
    for (let i = 0; i < 5; i++) hub.register(greedy.caller, { eventType: "PreToolUse" });
    expect(thrown(() => hub.register(greedy.caller, { eventType: "PreToolUse" }))).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxHooksPerEventPerClient"),
    });
    const security = open(hub, "security");
    expect(hub.register(security.caller, { eventType: "PreToolUse" }).hookId).toBeTruthy();
  });

  it("keeps slots of each event, and of the total, for the host's own hooks", () => {
    const { engine, hub } = setup(
      { maxRemoteHooksPerEvent: 3, maxRemoteHooks: 4 },
      { maxHooksPerEvent: 4, maxTotalHooks: 6 },
    );
    const a = open(hub, "a");
    const b = open(hub, "b");
    hub.register(a.caller, { eventType: "PreToolUse" });
    hub.register(a.caller, { eventType: "PreToolUse" });
    hub.register(b.caller, { eventType: "PreToolUse" });
    expect(thrown(() => hub.register(b.caller, { eventType: "PreToolUse" }))).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxRemoteHooksPerEvent"),
    });
    hub.register(b.caller, { eventType: "Stop" });
    expect(thrown(() => hub.register(b.caller, { eventType: "Stop" }))).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxRemoteHooks:"),
    });
    // The host's policy still fits, on the full event and in the full total.
    engine.register({ event: "PreToolUse", id: "host-policy", handler: () => undefined });
    engine.register({ event: "Stop", id: "host-stop", handler: () => undefined });
    expect(engine.size()).toBe(6);
  });
});

describe("HookHub firings", () => {
  it("sends a matching firing with its deadline, and resolves with the client's answer", async () => {
    const { engine, hub } = setup({}, { defaultTimeoutMs: 2000 });
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h", matcher: { tool: "Bash" } });
    const event = bash();
    const sent = c1.next();
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
    c1.stream.receive({ hookId: "h", eventId: event.eventId, action: "block", reason: "no" });
    expect(await firing).toMatchObject({ action: "block", reason: "no" });
    // Not matching: nothing is sent.
    await engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Read", args: {} }));
    expect(c1.sent).toHaveLength(1);
  });

  it("registers without reading the engine's hook list back: the request's timeout, else the engine's default", async () => {
    const { engine, hub } = setup({}, { defaultTimeoutMs: 2000 });
    const list = vi.spyOn(engine, "list");
    const c1 = open(hub, "c1");
    hub.register(c1.caller, {
      eventType: "PreToolUse",
      hookId: "own",
      config: { timeoutMs: 9000 },
    });
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "default" });
    expect(list).not.toHaveBeenCalled();
    const before = Date.now();
    const firing = engine.fire(bash());
    await vi.waitFor(() => expect(c1.sent).toHaveLength(2));
    const deadline = (id: string) => c1.sent.find((m) => m.hookId === id)!.deadlineMs - before;
    expect(deadline("own")).toBeGreaterThanOrEqual(9000);
    expect(deadline("own")).toBeLessThan(9000 + 1000);
    expect(deadline("default")).toBeGreaterThanOrEqual(2000);
    expect(deadline("default")).toBeLessThan(2000 + 1000);
    for (const m of c1.sent) c1.stream.receive({ hookId: m.hookId, eventId: m.eventId });
    expect(await firing).toMatchObject({ action: "continue" });
    expect(hub.list(c1.caller, {}).hooks.map((h) => h.config?.timeoutMs)).toEqual([9000, 2000]);
  });

  it("hands the engine the answer it checked on arrival: a patch applies once, a bad one fails the hook", async () => {
    const { engine, hub } = setup();
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    const sent = c1.next();
    const firing = engine.fire(bash("ls"));
    const message = await sent;
    c1.stream.receive({
      hookId: "h",
      eventId: message.eventId,
      action: "continue",
      modified: { args: { command: "ls -la" } },
      systemMessage: "patched",
    });
    const result = await firing;
    expect(result.event.args).toEqual({ command: "ls -la" });
    expect(result.systemMessages).toEqual(["patched"]);
    const sentAgain = c1.next();
    const bad = engine.fire(bash("ls"));
    const second = await sentAgain;
    c1.stream.receive({ hookId: "h", eventId: second.eventId, action: "block", reason: "" });
    expect((await bad).outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_OUTPUT" },
    });
  });

  it("fails at once while the client is away, with its fail behaviour, naming no client", async () => {
    const { engine, hub } = setup();
    const c1 = open(hub, "client-one");
    hub.register(c1.caller, {
      eventType: "PreToolUse",
      config: { failBehavior: "block", name: "policy" },
    });
    hub.register(c1.caller, {
      eventType: "PreToolUse",
      hookId: "guard",
      config: { failBehavior: "block" },
    });
    c1.stream.detach("gone");
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    expect(result.reason).toBe(
      "hook policy failed: remote hook policy: its client is disconnected",
    );
    expect(result.outcomes[0]?.error?.message).toBe(
      "remote hook policy: its client is disconnected",
    );
    expect(JSON.stringify(result)).not.toContain("client-one");
  });

  it("sends a cancellation when the engine stops waiting", async () => {
    const timers = new ManualTimers();
    const { engine, hub } = setup({}, { timers });
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h", config: { timeoutMs: 100 } });
    const sent = c1.next();
    const firing = engine.fire(bash());
    const message = await sent;
    const cancelled = c1.next();
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
    // Not "c1": the warnings carry event ids (UUIDs), whose hex digits may spell it.
    const c1 = open(hub, "client-x");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    const audited: string[] = [];
    engine.on("warning", (w) => audited.push(w.message));
    const stream = c1.stream;
    const sent = c1.next();
    const firing = engine.fire(bash());
    const { eventId } = await sent;
    // Malformed, but it names a waiting firing: that firing fails.
    expect(stream.receive({ hookId: "h", eventId, action: "block" })).toBe(true);
    const result = await firing;
    expect(result.outcomes[0]).toMatchObject({ status: "failed" });
    expect(result.outcomes[0]?.error?.message).toContain("reason");
    // Late (nothing waits any more), unknown, and not even an object.
    expect(stream.receive({ hookId: "h", eventId, action: "continue" })).toBe(false);
    stream.receive({ hookId: "h", eventId: "never-sent", action: "continue" });
    stream.receive("garbage");
    stream.receive(
      { hookId: "h", eventId: "x" },
      Object.assign(new Error("modified: not JSON"), { code: "INVALID_OUTPUT", path: [] }) as never,
    );
    const warnings = events.filter((e) => e.type === "warning");
    expect(warnings).toHaveLength(5);
    expect(warnings[1]).toMatchObject({
      clientId: "client-x",
      message: expect.stringContaining("no firing waits for that answer"),
    });
    expect(warnings[3]?.message).toContain("malformed HookResponse");
    // The same warnings reach the engine's audit stream, which may be shown to others: no id.
    expect(audited).toHaveLength(5);
    expect(audited[1]).toMatch(/^remote client: .*no firing waits for that answer/);
    expect(audited.join("\n")).not.toContain("client-x");
    // Four of the five named hook h: malformed, late, unknown event, undecodable.
    expect(hub.list(c1.caller, {}).hooks[0]?.counters).toMatchObject({
      runs: 1,
      failures: 1,
      rejectedResponses: 4,
    });
  });

  it("blocks a firing that can block when its event is too large to send, without breaking the stream", async () => {
    const { engine, hub } = setup();
    const c1 = open(hub, "c1", sink({ tooBig: true }));
    hub.register(c1.caller, { eventType: "PreToolUse" });
    const result = await engine.fire(bash("x".repeat(1000)));
    expect(result.action).toBe("block");
    expect(result.reason).toContain("was not shown the event");
    expect(c1.closed()).toBeUndefined();
  });

  it("answers waiting firings when the stream drops, then removes the hooks after the window", async () => {
    const { engine, hub, timers, events } = setup({ reconnectWindowMs: 1000 });
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    const sent = c1.next();
    const firing = engine.fire(bash());
    await sent;
    c1.stream.detach("socket closed");
    expect((await firing).outcomes[0]?.error).toMatchObject({
      code: "UNAVAILABLE",
      message: "the client disconnected (socket closed)",
    });
    expect(events.at(-1)).toMatchObject({ type: "client_disconnected", failedFirings: 1 });
    const removed: string[] = [];
    engine.on("unregistered", (r) => removed.push(r.reason));
    timers.advance(999);
    expect(engine.size()).toBe(1);
    timers.advance(1);
    expect(engine.size()).toBe(0);
    expect(removed).toEqual(["its client did not reconnect within 1000 ms"]);
    expect(events.at(-1)).toMatchObject({
      type: "client_expired",
      clientId: "c1",
      removedHooks: 1,
    });
    expect(hub.clients()).toEqual([]);
  });

  it("removes the hooks at once, without waiting for the window, of a client that left for good", async () => {
    const { engine, hub, events } = setup({ reconnectWindowMs: 1000 });
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    const removed: string[] = [];
    engine.on("unregistered", (r) => removed.push(r.reason));
    c1.stream.detach("page closed", { left: true });
    expect(engine.size()).toBe(0);
    expect(removed).toEqual(["its client left"]);
    expect(events.at(-1)).toMatchObject({
      type: "client_expired",
      clientId: "c1",
      removedHooks: 1,
    });
    expect(hub.clients()).toEqual([]);
  });

  it("resumes a client that comes back inside its window, and replaces an older stream", async () => {
    const { engine, hub, timers } = setup({ reconnectWindowMs: 1000 });
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    c1.stream.detach("gone");
    timers.advance(500);
    const second = sink();
    const again = hub.attach(c1.caller, second.sink);
    expect(again.resumed).toBe(true);
    timers.advance(5000);
    expect(engine.size()).toBe(1);
    // A third stream of the same client takes over; the second is told why.
    const third = sink();
    const latest = hub.attach(c1.caller, third.sink);
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
    const c1 = open(hub, "c1");
    hub.register(c1.caller, { eventType: "PreToolUse", hookId: "h" });
    const sent = c1.next();
    const firing = engine.fire(bash());
    const { eventId } = await sent;
    const closing = hub.close();
    expect(engine.size()).toBe(0);
    c1.stream.receive({ hookId: "h", eventId, action: "block", reason: "answered while draining" });
    await closing;
    expect((await firing).reason).toBe("answered while draining");
    expect(c1.closed()?.message).toBe("the hook server is closing");
    expect(thrown(() => hub.register(c1.caller, { eventType: "Stop" })).code).toBe("UNAVAILABLE");
  });
});
