import {
  createEvent,
  HookEngine,
  type HookEngineOptions,
  HookError,
  type HookEventName,
} from "@a3s-lab/hooks-core";
import { HookHub, type HookHubOptions } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { ManualTimers } from "../../../test-support/manual-timers.ts";
import { MemoryLine } from "../test/fixtures/memory-transport.js";
import { A3sClient } from "./index.js";
import type { ConnectionState } from "./types.js";

const TOKEN = "tok";
const opened: A3sClient[] = [];

function setup(
  options: {
    token?: string;
    hub?: Omit<HookHubOptions, "engine">;
    engine?: HookEngineOptions;
  } = {},
) {
  const engine = new HookEngine(options.engine);
  const hub = new HookHub({ engine, ...options.hub });
  const line = new MemoryLine(hub, TOKEN);
  const timers = new ManualTimers();
  const client = new A3sClient({
    address: "memory:1",
    token: options.token ?? TOKEN,
    transport: line.factory,
    timers,
    reconnect: { initialDelayMs: 100, maxDelayMs: 100 },
  });
  opened.push(client);
  return { engine, hub, line, timers, client };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

function bash(command: string) {
  return createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });
}

function nextState(client: A3sClient, state: ConnectionState): Promise<void> {
  return new Promise((resolve) => {
    const off = client.on("state", (e) => {
      if (e.state === state) {
        off();
        resolve();
      }
    });
  });
}

function nextError(client: A3sClient): Promise<HookError> {
  return new Promise((resolve) => {
    const off = client.on("error", (e) => {
      off();
      resolve(e);
    });
  });
}

function callsOf(line: MemoryLine, method: string) {
  return line.calls.filter((c) => c.method === method).length;
}

describe("A3sClient registration", () => {
  it("returns the id at once, connects lazily, and registers once connected", async () => {
    const { engine, client, line } = setup();
    expect(client.state).toBe("idle");
    expect(line.openStreams).toBe(0);
    const { id } = client.registerHook("PreToolUse", (event) =>
      String(event.args.command).includes("rm -rf /")
        ? { action: "block", reason: "no" }
        : undefined,
    );
    expect(typeof id).toBe("string");
    expect(engine.size()).toBe(0);
    await client.ready();
    expect(client.state).toBe("ready");
    expect(engine.list()).toMatchObject([{ name: id, source: `remote:${client.clientId}` }]);
    expect((await engine.fire(bash("rm -rf /"))).action).toBe("block");
    expect((await engine.fire(bash("ls"))).action).toBe("continue");
  });

  it("returns a handle like the engine's: unregister(), using, and the id for unregisterHook", async () => {
    const { engine, client } = setup();
    const hook = client.registerHook("PreToolUse", { id: "guard", handler: () => undefined });
    expect([hook.id, hook.ids, `${hook}`]).toEqual(["guard", ["guard"], "guard"]);
    await client.ready();
    expect(engine.size()).toBe(1);
    expect(hook.unregister()).toBe(true);
    expect(hook.unregister()).toBe(false);
    await client.ready();
    expect(engine.size()).toBe(0);
    {
      using _scoped = client.registerHook("PreToolUse", { id: "scoped", handler: () => undefined });
      await client.ready();
      expect(engine.size()).toBe(1);
    }
    await client.ready();
    expect(engine.size()).toBe(0);
    // A handle removes only its own hook, not a later one under the same id.
    const again = client.registerHook("PreToolUse", { id: "guard", handler: () => undefined });
    expect(hook.unregister()).toBe(false);
    expect(client.unregisterHook(again)).toBe(true);
  });

  it("checks a registration where it is written", () => {
    const { client } = setup();
    const handler = () => undefined;
    const fails = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as HookError;
      }
      throw new Error("did not throw");
    };
    const typo = fails(() => client.registerHook("PreToolUze" as HookEventName, handler));
    expect([typo.code, typo.message]).toEqual([
      "UNKNOWN_EVENT",
      'event: unknown event name "PreToolUze" (did you mean "PreToolUse"?)',
    ]);
    const badRegex = fails(() => client.registerHook("PreToolUse", { matcher: "((", handler }));
    expect(badRegex.code).toBe("INVALID_PATTERN");
    expect(badRegex.message).toContain("matcher");
    expect(
      fails(() => client.registerHook("Stop", { matcher: { tool: "Bash" }, handler })).message,
    ).toContain("tool events only");
    expect(
      fails(() => client.registerHook("PreToolUse", { matcher: (() => true) as never, handler }))
        .message,
    ).toContain("matching runs in the agent");
    expect(
      fails(() =>
        client.registerHook("PreToolUse", { matcher: { tools: "Bash" } as never, handler }),
      ).message,
    ).toContain('unknown field "tools"');
    const badTimeout = fails(() =>
      client.registerHook("PreToolUse", { handler, config: { timeoutMs: -1 } }),
    );
    expect(badTimeout.message).toContain("config.timeoutMs: expected a positive number, got -1");
    const both = fails(() =>
      client.registerHook("PreToolUse", { handler, config: { timeoutMs: 100, timeout: 200 } }),
    );
    expect([both.code, both.path]).toEqual(["INVALID_CONFIG", ["config", "timeout"]]);
    expect(
      fails(() => client.registerHook("PreToolUse", { handler: 42 as never })).message,
    ).toContain("handler");
    expect(
      fails(() => client.registerHook("PreToolUse", { handler, id: "a b" })).message,
    ).toContain("id");
    client.registerHook("PreToolUse", { handler, id: "same" });
    expect(fails(() => client.registerHook("PreToolUse", { handler, id: "same" })).code).toBe(
      "INVALID_CONFIG",
    );
    expect(client.state).toBe("connecting");
  });

  it("accepts every spelling of an event name and keeps the canonical one", async () => {
    const { engine, client } = setup();
    client.registerHook("ToolError", () => undefined);
    client.registerHook("pre_tool_use" as "PreToolUse", () => undefined);
    await client.ready();
    expect(
      engine
        .list()
        .map((h) => h.event)
        .sort(),
    ).toEqual(["PostToolUseFailure", "PreToolUse"]);
  });

  it("reports a registration the agent refuses, and drops it", async () => {
    const { engine, client } = setup({ hub: { maxHooksPerEventPerClient: 1 } });
    client.registerHook("PreToolUse", () => undefined);
    const refused = nextError(client);
    const second = client.registerHook("PreToolUse", () => undefined);
    const error = await refused;
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.details.hookId).toBe(second.id);
    await client.ready();
    expect(engine.size()).toBe(1);
    expect(second.unregister()).toBe(false);
    expect(client.unregisterHook(second)).toBe(false);
  });

  it("subscribes nothing with an already-aborted signal, and stops on a later abort", async () => {
    const { client } = setup();
    const heard: string[] = [];
    client.on("state", ({ state }) => heard.push(`aborted:${state}`), {
      signal: AbortSignal.abort(),
    });
    client.onAudit((r) => heard.push(`audit:${r.type}`), { signal: AbortSignal.abort() });
    const controller = new AbortController();
    client.on("state", ({ state }) => heard.push(`live:${state}`), { signal: controller.signal });
    await client.ready();
    controller.abort();
    await client.close();
    expect(heard.filter((h) => !h.startsWith("live:"))).toEqual([]);
    expect(heard).not.toContain("live:closed");
  });

  it("unregisters on an aborted signal, and never registers with one aborted already", async () => {
    const { engine, client } = setup();
    const controller = new AbortController();
    client.registerHook("PreToolUse", { handler: () => undefined, signal: AbortSignal.abort() });
    client.registerHook("PreToolUse", { handler: () => undefined, signal: controller.signal });
    await client.ready();
    expect(engine.size()).toBe(1);
    controller.abort();
    await client.ready();
    expect(engine.size()).toBe(0);
  });

  it("sends config.timeoutMs to the agent, and config.timeout as its deprecated alias", async () => {
    const { engine, client } = setup();
    client.registerHook("PreToolUse", { id: "ms", config: { timeoutMs: 700 }, handler: () => {} });
    client.registerHook("PreToolUse", { id: "old", config: { timeout: 800 }, handler: () => {} });
    await client.ready();
    const timeouts = Object.fromEntries((await client.listHooks()).map((h) => [h.id, h.config]));
    expect(timeouts.ms).toMatchObject({ timeoutMs: 700, timeout: 700 });
    expect(timeouts.old).toMatchObject({ timeoutMs: 800, timeout: 800 });
    expect(engine.list().map((h) => h.timeout)).toEqual([700, 800]);
  });

  it("lists its hooks with the agent's defaults and counters", async () => {
    const { engine, client } = setup({ engine: { defaultTimeoutMs: 1234 } });
    const { id } = client.registerHook("PreToolUse", {
      matcher: { tool: "Bash", pathPattern: "*.sh" },
      config: { priority: 3, name: "guard" },
      handler: () => ({ action: "block", reason: "no" }),
    });
    await client.ready();
    await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { path: "a.sh" } }),
    );
    expect(await client.listHooks()).toEqual([
      {
        id,
        event: "PreToolUse",
        matcher: { tool: "Bash", pathPattern: "*.sh" },
        config: {
          priority: 3,
          timeoutMs: 1234,
          timeout: 1234,
          async: false,
          failBehavior: "continue",
          name: "guard",
        },
        counters: { runs: 1, blocks: 1, failures: 0, timeouts: 0, rejectedResponses: 0 },
      },
    ]);
  });
});

describe("A3sClient connection", () => {
  it("reconnects after a cut without registering again what the agent kept", async () => {
    const { engine, client, line, timers } = setup({ hub: { reconnectWindowMs: 60_000 } });
    client.registerHook("PreToolUse", () => ({ action: "block", reason: "kept" }));
    await client.ready();
    const reconnecting = nextState(client, "reconnecting");
    line.cut();
    await reconnecting;
    // Away: the hook answers with its fail behaviour at once.
    expect((await engine.fire(bash("ls"))).outcomes[0]?.status).toBe("failed");
    const ready = nextState(client, "ready");
    timers.advance(200);
    await ready;
    expect(callsOf(line, "RegisterHook")).toBe(1);
    expect((await engine.fire(bash("ls"))).reason).toBe("kept");
  });

  it("registers again, in order, what a restarted agent lost, and removes what it should not hold", async () => {
    const { client, line, timers } = setup();
    const first = client.registerHook("PreToolUse", {
      config: { priority: 1 },
      handler: () => undefined,
    });
    const second = client.registerHook("PreToolUse", {
      config: { priority: 1 },
      handler: () => undefined,
    });
    await client.ready();
    const reconnecting = nextState(client, "reconnecting");
    line.cut();
    await reconnecting;
    // While away: the agent forgets everything (a restart), and this client drops one hook.
    await line.hub.close({ drainMs: 0 });
    const fresh = new HookEngine();
    line.hub = new HookHub({ engine: fresh });
    client.unregisterHook(first);
    const ready = nextState(client, "ready");
    timers.advance(200);
    await ready;
    await client.ready();
    expect(fresh.list().map((h) => h.name)).toEqual([second.id]);
  });

  it("removes on reconnect a hook unregistered while away", async () => {
    const { engine, client, line, timers } = setup({ hub: { reconnectWindowMs: 60_000 } });
    const { id } = client.registerHook("PreToolUse", () => undefined);
    await client.ready();
    const reconnecting = nextState(client, "reconnecting");
    line.cut();
    await reconnecting;
    expect(client.unregisterHook(id)).toBe(true);
    expect(engine.size()).toBe(1);
    timers.advance(200);
    await client.ready();
    expect(engine.size()).toBe(0);
  });

  it("fails for good on a wrong token: no retries, and ready() says why", async () => {
    const { client, timers, engine } = setup({ token: "wrong" });
    const failed = nextState(client, "failed");
    client.registerHook("PreToolUse", () => undefined);
    await expect(client.ready()).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await failed;
    expect(timers.pending).toBe(0);
    expect(engine.size()).toBe(0);
  });

  it("gives up waiting in ready() after the connect timeout, naming the address and the last error", async () => {
    const { client, line, timers } = setup();
    line.refuse = new HookError("UNAVAILABLE", "connection refused");
    const waiting = client.ready({ timeoutMs: 1000 });
    await nextState(client, "reconnecting");
    timers.advance(1000);
    await expect(waiting).rejects.toThrow(
      "not connected to the agent at memory:1 within 1000 ms (last error: connection refused)",
    );
    // It keeps trying in the background: once the agent is back, it connects.
    line.refuse = undefined;
    const ready = nextState(client, "ready");
    timers.advance(200);
    await ready;
  });

  it("closes: removes its hooks from the agent, aborts handlers, refuses new work", async () => {
    const { engine, client } = setup();
    client.registerHook("PreToolUse", {
      config: { failBehavior: "block" },
      handler: () => undefined,
    });
    await client.ready();
    expect(engine.size()).toBe(1);
    await client.close();
    expect(client.state).toBe("closed");
    expect(engine.size()).toBe(0);
    expect(() => client.registerHook("PreToolUse", () => undefined)).toThrow(
      "the client is closed",
    );
    await expect(client.ready()).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await client.close();
  });
});

describe("A3sClient handlers", () => {
  it("answers a handler that throws with its fail behaviour and reports it", async () => {
    const { engine, client } = setup();
    const { id } = client.registerHook("PreToolUse", {
      config: { failBehavior: "block", name: "strict" },
      handler: () => {
        throw new Error("kaput");
      },
    });
    await client.ready();
    const reported = nextError(client);
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.reason).toContain("kaput");
    const error = await reported;
    expect(error).toMatchObject({ code: "HANDLER_FAILED", details: { hookId: id } });
    expect(error.message).toBe("hook strict failed: kaput");
  });

  it("treats a malformed answer as a failure, naming the field", async () => {
    const { engine, client } = setup();
    client.registerHook("PreToolUse", () => ({ action: "explode" }) as never);
    client.registerHook("PreToolUse", async () => ({ action: "block" }) as never);
    await client.ready();
    const result = await engine.fire(bash("ls"));
    expect(result.outcomes.map((o) => o.status)).toEqual(["failed", "failed"]);
    expect(result.outcomes[0]?.error?.message).toContain("response.action");
    expect(result.outcomes[1]?.error?.message).toContain("response.reason");
  });

  it("aborts the handler's signal when the agent stops waiting", async () => {
    const engineTimers = new ManualTimers();
    const { engine, client } = setup({ engine: { timers: engineTimers } });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const aborted = new Promise<unknown>((resolve) => {
      client.registerHook("PreToolUse", {
        config: { timeoutMs: 500 },
        handler: (_event, ctx) => {
          ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason));
          started();
          return new Promise(() => {});
        },
      });
    });
    await client.ready();
    const firing = engine.fire(bash("ls"));
    await running;
    engineTimers.advance(500);
    expect((await firing).outcomes[0]?.status).toBe("timeout");
    expect(String(((await aborted) as Error).message)).toBe(
      "the agent stopped waiting: no answer within 500 ms",
    );
  });

  it("aborts running handlers when the connection drops; the agent has answered already", async () => {
    const { engine, client, line } = setup();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const aborted = new Promise<unknown>((resolve) => {
      client.registerHook("PreToolUse", {
        config: { timeout: 60_000, failBehavior: "block" },
        handler: (_event, ctx) => {
          ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason));
          started();
          return new Promise(() => {});
        },
      });
    });
    await client.ready();
    const firing = engine.fire(bash("ls"));
    await running;
    line.cut("cable pulled");
    const result = await firing;
    expect(result.action).toBe("block");
    expect(result.reason).toContain("disconnected (cable pulled)");
    expect(((await aborted) as HookError).code).toBe("UNAVAILABLE");
  });

  it("hands the handler its deadline and ids", async () => {
    const { engine, client } = setup({ engine: { defaultTimeoutMs: 3000 } });
    let seen: { deadline: number; hookId: string; eventId: string; sessionId: string } | undefined;
    const { id } = client.registerHook("PreToolUse", (_event, ctx) => {
      seen = {
        deadline: ctx.deadline,
        hookId: ctx.hookId,
        eventId: ctx.eventId,
        sessionId: ctx.sessionId,
      };
    });
    await client.ready();
    const event = bash("ls");
    const before = Date.now();
    await engine.fire(event);
    expect(seen).toMatchObject({ hookId: id, eventId: event.eventId, sessionId: "s1" });
    expect(seen!.deadline).toBeGreaterThanOrEqual(before + 3000);
  });

  it("emits audit records for its own hooks at the chosen level", async () => {
    const { engine, client } = setup();
    const records: string[] = [];
    client.on("audit", (r) => records.push(r.type));
    expect(() => client.setHookAuditLevel("loud" as never)).toThrow(
      'expected "off", "info" or "verbose"',
    );
    client.setHookAuditLevel("verbose");
    client.registerHook("PreToolUse", () => ({ action: "continue", modified: { args: { x: 1 } } }));
    client.registerHook("PreToolUse", () => ({ action: "block", reason: "no" }));
    await client.ready();
    await engine.fire(bash("ls"));
    expect(records.sort()).toEqual(
      [
        "registered",
        "registered",
        "started",
        "started",
        "completed",
        "completed",
        "modified",
        "blocked",
      ].sort(),
    );
    client.setHookAuditLevel("off");
    await engine.fire(bash("ls"));
    expect(records).toHaveLength(8);
  });
});

describe("A3sClient.temporaryHook", () => {
  it("holds the hook for the callback, and removes it even when the callback throws", async () => {
    const { engine, client } = setup();
    const inside = await client.temporaryHook(
      "PreToolUse",
      () => ({ action: "block", reason: "t" }),
      async () => {
        expect(engine.size()).toBe(1);
        return (await engine.fire(bash("ls"))).action;
      },
    );
    expect(inside).toBe("block");
    expect(engine.size()).toBe(0);
    await expect(
      client.temporaryHook(
        "PreToolUse",
        () => undefined,
        () => {
          throw new Error("oops");
        },
      ),
    ).rejects.toThrow("oops");
    expect(engine.size()).toBe(0);
  });

  it("works with await using", async () => {
    const { engine, client } = setup();
    {
      await using hook = client.temporaryHook("PreToolUse", { handler: () => undefined });
      await client.ready();
      expect(engine.list()[0]?.name).toBe(hook.id);
    }
    expect(engine.size()).toBe(0);
  });
});
