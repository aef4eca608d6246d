import {
  block,
  eventSpecs,
  HookEngine,
  HookError,
  modify,
  retry,
  type Timers,
} from "@a3s-lab/hooks-core";
import type { HookCallback, HookInput, SyncHookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  anySdkInput,
  callOptions,
  permissionRequest,
  postToolUse,
  preToolUse,
  stop,
  userPromptSubmit,
} from "../test/fixtures/sdk-inputs.js";
import { bridgedEvents } from "./sdk-events.js";
import { createAgentSdkHook, toAgentSdkHooks } from "./to-agent-sdk-hooks.js";

/** The callback query() would call for `input`'s event, called the way the SDK calls it. */
function call(engine: HookEngine, input: HookInput, signal?: AbortSignal) {
  const hooks = toAgentSdkHooks(engine);
  const callback = hooks[input.hook_event_name]?.[0]?.hooks[0] as HookCallback;
  return callback(input, "toolu_1", callOptions(signal)) as Promise<SyncHookJSONOutput>;
}

function warnings(engine: HookEngine): string[] {
  const seen: string[] = [];
  engine.on("warning", (record) => seen.push(record.message));
  return seen;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("toAgentSdkHooks", () => {
  it("gives query() one callback for every bridged SDK event, with no SDK matcher", () => {
    const hooks = toAgentSdkHooks(new HookEngine(), { timeout: 120 });
    expect(Object.keys(hooks).sort()).toEqual(Object.keys(bridgedEvents).sort());
    for (const [event, matchers] of Object.entries(hooks)) {
      expect(matchers).toHaveLength(1);
      // The SDK blocks what a failed callback guards only where the event can block.
      const canBlock = eventSpecs[bridgedEvents[event as keyof typeof bridgedEvents]].canBlock;
      expect(matchers[0]).toEqual({
        hooks: [expect.any(Function)],
        timeout: 120,
        ...(canBlock ? { onFailure: "block" } : {}),
      });
    }
    expect(
      toAgentSdkHooks(new HookEngine(), { onFailure: "continue" }).PreToolUse?.[0],
    ).not.toHaveProperty("onFailure");
    expect(Object.keys(toAgentSdkHooks(new HookEngine(), { events: ["PreToolUse"] }))).toEqual([
      "PreToolUse",
    ]);
  });

  it("answers {} to every SDK input while no hook is registered for its event", async () => {
    const engine = new HookEngine();
    engine.register({ event: "SkillLoad", handler: () => block("not this one") });
    const callback = createAgentSdkHook(engine);
    await fc.assert(
      fc.asyncProperty(anySdkInput, async (input) => {
        expect(await callback(input, undefined, callOptions())).toEqual({});
      }),
    );
  });

  it("PreToolUse: a TypeScript hook's block denies the call, with its reason", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: "Bash",
      handler: (e) => (String(e.args.command).includes("rm -rf") ? block("no rm -rf") : undefined),
    });
    expect(await call(engine, preToolUse("Bash", { command: "rm -rf /" }))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no rm -rf",
      },
    });
    expect(await call(engine, preToolUse("Bash", { command: "ls" }))).toEqual({});
  });

  it("PreToolUse: matchers see the SDK's tool names, MCP tools included", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: "mcp__github__*",
      handler: () => block("no GitHub writes"),
    });
    const out = await call(engine, preToolUse("mcp__github__create_issue", { title: "x" }));
    expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(await call(engine, preToolUse("mcp__linear__create_issue", {}))).toEqual({});
  });

  it("PreToolUse: rewritten arguments become the whole updatedInput, with the hook's permission", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      handler: () => modify({ args: { timeout: 30_000, dry: null } }, { permission: "ask" }),
    });
    const out = await call(engine, preToolUse("Bash", { command: "make", dry: true }));
    expect(out.hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      updatedInput: { command: "make", timeout: 30_000 },
    });
  });

  it("PreToolUse: a rewrite that breaks the tool's schema is that hook's failure, named, and a fail-closed hook blocks", async () => {
    const engine = new HookEngine({
      toolSchemas: {
        Bash: {
          safeParse: (v) =>
            typeof (v as { command?: unknown }).command === "string"
              ? { success: true }
              : { success: false, error: new Error("command must be a string") },
        },
      },
    });
    engine.register({
      name: "breaks-bash",
      event: "PreToolUse",
      failBehavior: "block",
      handler: () => modify({ args: { command: 42 } }),
    });
    const out = await call(engine, preToolUse("Bash", { command: "ls" }));
    const specific = out.hookSpecificOutput as {
      permissionDecision?: string;
      permissionDecisionReason?: string;
    };
    expect(specific.permissionDecision).toBe("deny");
    expect(specific.permissionDecisionReason).toContain("breaks-bash");
    expect(specific.permissionDecisionReason).toContain("command must be a string");
  });

  it("PreToolUse: a rewrite the tool's schema refuses stops the call with an error naming the hook, even from a fail-open hook", async () => {
    const engine = new HookEngine({
      toolSchemas: {
        Bash: {
          safeParse: (v) =>
            typeof (v as { command?: unknown }).command === "string"
              ? { success: true }
              : { success: false, error: new Error("command must be a string") },
        },
      },
    });
    engine.register({
      name: "sandbox-bash",
      event: "PreToolUse",
      handler: () => modify({ args: { command: ["sandbox", "ls"] } }),
    });
    const out = await call(engine, preToolUse("Bash", { command: "ls" }));
    const specific = out.hookSpecificOutput as {
      permissionDecision?: string;
      permissionDecisionReason?: string;
    };
    expect(specific?.permissionDecision).toBe("deny");
    expect(specific.permissionDecisionReason).toMatch(
      /sandbox-bash.*Bash.*command must be a string/,
    );
  });

  it("PostToolUse: a hook rewrites the output the model reads", async () => {
    const engine = new HookEngine();
    engine.register({
      event: "PostToolUse",
      handler: (e) => modify({ result: { output: e.result.output.replace(/sk-\w+/g, "[key]") } }),
    });
    const out = await call(engine, postToolUse("Read", { file_path: "a" }, { text: "sk-abc" }));
    expect(out.hookSpecificOutput).toEqual({
      hookEventName: "PostToolUse",
      updatedToolOutput: '{"text":"[key]"}',
    });
  });

  it("PermissionRequest: allow and deny decide; arguments changed without an allow are not sent, and the audit says so", async () => {
    const engine = new HookEngine();
    const seen = warnings(engine);
    engine.register({
      event: "PermissionRequest",
      handler: (e) =>
        e.tool === "Write"
          ? { action: "continue", permission: "allow", modified: { args: { mode: "safe" } } }
          : e.tool === "Bash"
            ? block("denied in the browser")
            : modify({ args: { mode: "safe" } }),
    });
    expect(
      (await call(engine, permissionRequest("Write", { path: "a" }))).hookSpecificOutput,
    ).toEqual({
      hookEventName: "PermissionRequest",
      decision: { behavior: "allow", updatedInput: { path: "a", mode: "safe" } },
    });
    expect((await call(engine, permissionRequest("Bash", {}))).hookSpecificOutput).toEqual({
      hookEventName: "PermissionRequest",
      decision: { behavior: "deny", message: "denied in the browser" },
    });
    expect(await call(engine, permissionRequest("Edit", {}))).toEqual({});
    expect(seen.some((m) => m.includes("without allowing the call"))).toBe(true);
  });

  it("UserPromptSubmit and Stop: a block says block, with the reason", async () => {
    const engine = new HookEngine();
    engine.register({ event: "UserPromptSubmit", handler: () => block("no secrets in prompts") });
    engine.register({ event: "Stop", handler: () => block("run the tests first") });
    expect(await call(engine, userPromptSubmit("my password is hunter2"))).toEqual({
      decision: "block",
      reason: "no secrets in prompts",
    });
    expect(await call(engine, stop("Done."))).toEqual({
      decision: "block",
      reason: "run the tests first",
    });
  });

  it("input that does not fit blocks a tool call the hooks could not check, and warns", async () => {
    const engine = new HookEngine();
    const seen = warnings(engine);
    engine.register({ event: "PreToolUse", handler: () => undefined });
    const input = { ...preToolUse("Bash", {}), tool_input: ["rm", "-rf", "/"] as unknown };
    const out = await call(engine, input as HookInput);
    expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(
      (out.hookSpecificOutput as { permissionDecisionReason: string }).permissionDecisionReason,
    ).toContain("input.tool_input");
    expect(seen.some((m) => m.includes("input.tool_input"))).toBe(true);
  });

  it("input that does not fit an event that cannot block changes nothing, and warns", async () => {
    const engine = new HookEngine();
    const seen = warnings(engine);
    engine.register({ event: "PostToolUse", handler: () => undefined });
    const input = { ...postToolUse("Bash", {}, "ok"), tool_name: "" };
    expect(await call(engine, input)).toEqual({});
    expect(seen.some((m) => m.includes("input.tool_name"))).toBe(true);
  });

  it("hostile tool input: a __proto__ key stays data, and input nested 10 000 deep is still checked", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => modify({ args: { timeout: 1 } }) });
    const parsed = JSON.parse('{"command":"ls","__proto__":{"polluted":true}}');
    const out = await call(engine, preToolUse("Bash", parsed));
    const updated = (out.hookSpecificOutput as { updatedInput: Record<string, unknown> })
      .updatedInput;
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(updated)).toBe(Object.prototype);
    expect(updated).toMatchObject({ command: "ls", timeout: 1 });

    const deep = JSON.parse(`${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`);
    const answer = await call(engine, preToolUse("Bash", { command: "ls", deep }));
    expect((answer.hookSpecificOutput as { updatedInput: unknown }).updatedInput).toMatchObject({
      timeout: 1,
    });
  });

  it("answers {} for an SDK event the catalogue has no equivalent of", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => block("x") });
    const callback = createAgentSdkHook(engine);
    const input = { ...preToolUse("Bash", {}), hook_event_name: "PostToolBatch", tool_calls: [] };
    expect(await callback(input as unknown as HookInput, undefined, callOptions())).toEqual({});
  });

  it("retry: waits the delay and fires again; past maxRetries the call is blocked", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine();
    let calls = 0;
    engine.register({
      event: "PreToolUse",
      handler: () => (++calls < 3 ? retry(1000, "busy") : undefined),
    });
    const pending = call(engine, preToolUse("Bash", { command: "ls" }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toEqual({});
    expect(calls).toBe(3);

    const stubborn = new HookEngine();
    stubborn.register({ event: "PreToolUse", handler: () => retry(10) });
    const hook = createAgentSdkHook(stubborn, { maxRetries: 2 });
    const gaveUp = hook(preToolUse("Bash", {}), undefined, callOptions());
    await vi.advanceTimersByTimeAsync(100);
    expect(((await gaveUp) as SyncHookJSONOutput).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "PreToolUse: hooks asked to retry more than 2 times",
    });
  });

  it.each([
    ["continue", {}],
    ["block", { hookSpecificOutput: expect.objectContaining({ permissionDecision: "deny" }) }],
  ] as const)(
    "the SDK's AbortSignal aborts the hooks and the firing; a %s hook's answer, never a rejection",
    async (failBehavior, expected) => {
      const engine = new HookEngine();
      const seen = warnings(engine);
      let hookSignal: AbortSignal | undefined;
      engine.register({
        event: "PreToolUse",
        failBehavior,
        handler: (_e, ctx) => {
          hookSignal = ctx.signal;
          return new Promise(() => {});
        },
      });
      const controller = new AbortController();
      const pending = call(engine, preToolUse("Bash", {}), controller.signal);
      await vi.waitFor(() => expect(hookSignal).toBeDefined());
      controller.abort();
      expect(await pending).toEqual(expected);
      expect(hookSignal?.aborted).toBe(true);
      expect(seen.join("\n")).toMatch(/PreToolUse: the hooks failed: .*abort/i);
    },
  );

  it.each([
    [{ events: ["PreToolUse", "CwdChanged"] }, "options.events[1]"],
    [{ events: "PreToolUse" }, "options.events"],
    [{ timeout: 0 }, "options.timeout"],
    [{ timeout: Number.NaN }, "options.timeout"],
    [{ maxRetries: -1 }, "options.maxRetries"],
    [{ maxRetries: 1.5 }, "options.maxRetries"],
  ])("rejects bad options with a HookError naming the field: %o", (options, field) => {
    const thrown = (() => {
      try {
        toAgentSdkHooks(new HookEngine(), options as never);
      } catch (error) {
        return error;
      }
    })();
    expect(HookError.is(thrown, "INVALID_CONFIG")).toBe(true);
    expect((thrown as Error).message).toContain(field);
  });

  it("rejects something that is not an engine", () => {
    expect(() => toAgentSdkHooks({} as HookEngine)).toThrow(/engine: expected a HookEngine/);
  });
});

/** Timers that fire only when the test says so. */
function manualTimers(): Timers & { fire(): void; delays: number[] } {
  const pending = new Map<number, () => void>();
  let next = 0;
  const delays: number[] = [];
  return {
    delays,
    setTimeout(callback, ms) {
      delays.push(ms);
      pending.set(++next, callback);
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    now: () => 0,
    fire() {
      const callbacks = [...pending.values()];
      pending.clear();
      for (const callback of callbacks) callback();
    },
  };
}

describe("a hook that outlives the SDK's timeout", () => {
  const hanging = (engine: HookEngine, failBehavior: "block" | "continue") => {
    let aborted = false;
    engine.register({
      event: "PreToolUse",
      failBehavior,
      timeoutMs: 3_600_000,
      handler: (_event, ctx) =>
        new Promise<undefined>((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve(undefined);
          });
        }),
    });
    return () => aborted;
  };

  it("fail-closed: the bridge denies before the SDK stops waiting, and stops the hook", async () => {
    const engine = new HookEngine();
    const wasAborted = hanging(engine, "block");
    const timers = manualTimers();
    const callback = toAgentSdkHooks(engine, { timeout: 5, timers }).PreToolUse?.[0]
      ?.hooks[0] as HookCallback;
    const pending = callback(preToolUse("Bash", { command: "ls" }), "toolu_1", callOptions());
    await new Promise((r) => setImmediate(r));
    // Half a second before the SDK's 5 s.
    expect(timers.delays).toContain(4500);
    timers.fire();
    const answer = (await pending) as SyncHookJSONOutput;
    expect(answer.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("did not answer within 4.5 s"),
    });
    await new Promise((r) => setImmediate(r));
    expect(wasAborted()).toBe(true);
  });

  it("fail-open: the bridge answers {} at the deadline; the SDK's default timeout is used when none is given", async () => {
    const engine = new HookEngine();
    hanging(engine, "continue");
    const timers = manualTimers();
    const callback = createAgentSdkHook(engine, { timers });
    const pending = callback(preToolUse("Bash", { command: "ls" }), "toolu_1", callOptions());
    await new Promise((r) => setImmediate(r));
    expect(timers.delays).toContain(599_000);
    timers.fire();
    expect(await pending).toEqual({});
  });

  it("refuses an onFailure it does not know, naming the option", () => {
    expect(() => toAgentSdkHooks(new HookEngine(), { onFailure: "deny" as never })).toThrow(
      /options\.onFailure/,
    );
  });
});
