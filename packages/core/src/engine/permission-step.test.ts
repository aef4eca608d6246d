import { describe, expect, it, vi } from "vitest";
import { HookError } from "../base/hook-error.js";
import { validateEvent } from "../events/create-event.js";
import type { HookEvent } from "../events/event-schemas.js";
import { allow, ask, block, modify } from "../merge/hook-response.js";
import { normalizeHookOutput } from "../merge/normalize-output.js";
import { HookEngine } from "./hook-engine.js";
import { PermissionDeniedError, PermissionStep } from "./permission-step.js";
import { runTool } from "./tool-guard.js";

function setup() {
  const engine = new HookEngine();
  const seen: HookEvent[] = [];
  for (const event of ["PermissionRequest", "PermissionGranted", "PermissionDenied"] as const) {
    engine.register({ event, priority: 100, handler: (e) => void seen.push(e) });
  }
  const names = () => seen.map((e) => e.eventType);
  return { engine, seen, names };
}

const call = { sessionId: "s1", tool: "Bash", args: { command: "make" }, toolUseId: "t1" };
const pre = (permission: "allow" | "ask") => ({ permission });

async function denial(promise: Promise<unknown>): Promise<PermissionDeniedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PermissionDeniedError);
  return error as PermissionDeniedError;
}

describe("PermissionStep", () => {
  it("lets a call the policy does not name run, firing nothing", async () => {
    const { engine, names } = setup();
    const step = new PermissionStep({ ask: "mcp__fs__*" });
    expect(await step.authorize(engine, call)).toEqual({ args: { command: "make" } });
    expect(await new PermissionStep().authorize(engine, call)).toEqual({
      args: { command: "make" },
    });
    expect(names()).toEqual([]);
  });

  it("asks for the tools a matcher names, a predicate picks, or every tool", async () => {
    const named = new PermissionStep({ ask: "mcp__fs__write_file|Bash" });
    expect(named.asks("Bash", {})).toBe(true);
    expect(named.asks("Read", {})).toBe(false);
    expect(new PermissionStep({ ask: "mcp__fs__*" }).asks("mcp__fs__edit_file", {})).toBe(true);
    expect(new PermissionStep({ ask: "*" }).asks("Read", {})).toBe(true);
    expect(new PermissionStep({ ask: true }).asks("Read", {})).toBe(true);
    expect(new PermissionStep({ ask: false }).asks("Bash", {})).toBe(false);
    const predicate = new PermissionStep({ ask: (tool, args) => tool === "Bash" && !!args.sudo });
    expect(predicate.asks("Bash", { sudo: true })).toBe(true);
    expect(predicate.asks("Bash", {})).toBe(false);
  });

  it("settles with a PreToolUse allow: PermissionGranted by hook, no request", async () => {
    const { engine, seen, names } = setup();
    engine.register({ event: "PermissionRequest", handler: () => block("never asked") });
    const out = await new PermissionStep({ ask: true }).authorize(engine, {
      ...call,
      pre: pre("allow"),
    });
    expect(out).toEqual({ args: { command: "make" }, decidedBy: "hook" });
    expect(names()).toEqual(["PermissionGranted"]);
    expect(seen[0]).toMatchObject({
      tool: "Bash",
      toolUseId: "t1",
      decidedBy: "hook",
      reason: "allowed by a PreToolUse hook",
    });
  });

  // Claude Code's hooks reference, "PermissionDenied decision control": `retry: true` tells the
  // model it may retry; the denial itself is not reversed.
  it("carries a PermissionDenied hook's retry: true on the denial, which still stands", async () => {
    const { engine } = setup();
    const step = new PermissionStep({ ask: true });
    const plain = await denial(step.authorize(engine, call));
    expect(plain.retry).toBe(false);
    engine.register({
      event: "PermissionDenied",
      // As a command hook answers it: read with the event, like every answer field.
      handler: (e) => normalizeHookOutput({ hookSpecificOutput: { retry: true } }, { event: e }),
    });
    const told = await denial(step.authorize(engine, call));
    expect(told.retry).toBe(true);
    expect(told.decidedBy).toBe("default");
  });

  it("fires PermissionRequest when PreToolUse asks about a tool the policy does not name", async () => {
    const { engine, seen, names } = setup();
    const step = new PermissionStep({ ask: "mcp__fs__*" });
    const error = await denial(step.authorize(engine, { ...call, pre: pre("ask") }));
    expect(error).toMatchObject({
      code: "BLOCKED",
      tool: "Bash",
      decidedBy: "default",
      reason: "denied by the default answer",
      message: "permission denied for Bash: denied by the default answer",
    });
    expect(names()).toEqual(["PermissionRequest", "PermissionDenied"]);
    expect(seen[0]).toMatchObject({ reason: "Bash needs permission", toolUseId: "t1" });
  });

  it("denies on a PermissionRequest block, with the hook's reason", async () => {
    const { engine, seen, names } = setup();
    engine.register({ event: "PermissionRequest", handler: () => block("not today") });
    const answer = vi.fn(() => "allow" as const);
    const step = new PermissionStep({ ask: true, defaultAnswer: answer });
    const error = await denial(step.authorize(engine, call));
    expect(error).toMatchObject({ code: "BLOCKED", decidedBy: "hook", reason: "not today" });
    expect(HookError.is(error, "BLOCKED")).toBe(true);
    expect(answer).not.toHaveBeenCalled();
    expect(names()).toEqual(["PermissionRequest", "PermissionDenied"]);
    expect(seen[1]).toMatchObject({ decidedBy: "hook", reason: "not today" });
    for (const e of seen) expect(validateEvent(e).success).toBe(true);
  });

  it("allows on a PermissionRequest allow, and returns the request", async () => {
    const { engine, names } = setup();
    engine.register({ event: "PermissionRequest", handler: () => allow() });
    const out = await new PermissionStep({ ask: true }).authorize(engine, call);
    expect(out).toMatchObject({ args: { command: "make" }, decidedBy: "hook" });
    expect(out.request?.permission).toBe("allow");
    expect(names()).toEqual(["PermissionRequest", "PermissionGranted"]);
  });

  it("runs with the arguments a PermissionRequest hook rewrote, and reports them", async () => {
    const { engine, seen } = setup();
    engine.register({
      event: "PermissionRequest",
      handler: () => modify({ args: { command: "make -n" } }, { permission: "allow" }),
    });
    const out = await new PermissionStep({ ask: true }).authorize(engine, call);
    expect(out.args).toEqual({ command: "make -n" });
    expect(seen[1]).toMatchObject({ eventType: "PermissionGranted", args: { command: "make -n" } });
  });

  it("takes the default answer when hooks leave it open (a hook's ask does not settle it)", async () => {
    const { engine, seen } = setup();
    engine.register({ event: "PermissionRequest", handler: () => ask() });
    const onQuestion = vi.fn();
    const out = await new PermissionStep({ ask: true, defaultAnswer: "allow" }).authorize(engine, {
      ...call,
      onQuestion,
    });
    expect(out.decidedBy).toBe("default");
    expect(seen.at(-1)).toMatchObject({
      eventType: "PermissionGranted",
      decidedBy: "default",
      reason: "allowed by the default answer",
    });
    expect(onQuestion).toHaveBeenCalledWith({
      sessionId: "s1",
      tool: "Bash",
      args: { command: "make" },
      reason: "Bash needs permission",
      toolUseId: "t1",
    });
  });

  it("puts an open question to the answerer, with the call's reason and rewritten arguments", async () => {
    const { engine, seen } = setup();
    engine.register({ event: "PermissionRequest", handler: () => modify({ args: { n: 1 } }) });
    const answer = vi.fn().mockResolvedValueOnce("allow").mockResolvedValueOnce("deny");
    const step = new PermissionStep({ ask: true, defaultAnswer: answer });
    const asked = { ...call, reason: 'Bash wants to act on "make"' };
    expect(await step.authorize(engine, asked)).toMatchObject({
      args: { command: "make", n: 1 },
      decidedBy: "user",
    });
    expect(answer).toHaveBeenCalledWith(
      expect.objectContaining({ args: { command: "make", n: 1 }, reason: asked.reason }),
    );
    const error = await denial(step.authorize(engine, asked));
    expect(error).toMatchObject({ decidedBy: "user", reason: "denied when asked" });
    expect(seen.at(-1)).toMatchObject({ eventType: "PermissionDenied", decidedBy: "user" });
  });

  it("denies, never allows, when the answerer throws or answers something else", async () => {
    const { engine, seen, names } = setup();
    const execute = vi.fn(() => ({ output: "ran" }));
    const throwing = new PermissionStep({
      ask: true,
      defaultAnswer: async () => {
        throw new Error("the prompt closed");
      },
    });
    const error = await denial(
      runTool(engine, call, execute, {
        authorize: async (args, p) =>
          (await throwing.authorize(engine, { ...call, args, pre: p })).args,
      }),
    );
    expect(error).toMatchObject({
      code: "BLOCKED",
      decidedBy: "default",
      reason: "the answer failed (the prompt closed), so it is no",
    });
    expect(execute).not.toHaveBeenCalled();
    expect(names()).toEqual(["PermissionRequest", "PermissionDenied"]);

    const odd = new PermissionStep({ ask: true, defaultAnswer: (() => "yes") as never });
    await denial(odd.authorize(engine, call));
    expect(seen.at(-1)).toMatchObject({
      eventType: "PermissionDenied",
      reason: 'the answer "yes" is not "allow", so it is no',
    });
  });

  it("carries metadata on every event it fires, and stops when the signal aborts", async () => {
    const { engine, seen } = setup();
    engine.register({ event: "PermissionRequest", handler: () => allow() });
    await new PermissionStep({ ask: true }).authorize(engine, { ...call, metadata: { a: 1 } });
    for (const e of seen) expect(e.metadata).toEqual({ a: 1 });
    const aborted = AbortSignal.abort();
    const error = await new PermissionStep({ ask: true })
      .authorize(engine, { ...call, signal: aborted })
      .catch((e: unknown) => e);
    expect(HookError.is(error, "ABORTED")).toBe(true);
  });

  it("refuses bad options with the field's path", () => {
    expect(() => new PermissionStep({ defaultAnswer: "maybe" as never }, ["permission"])).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        path: ["permission", "defaultAnswer"],
        message: expect.stringContaining("permission.defaultAnswer"),
      }),
    );
    expect(() => new PermissionStep({ ask: 3 as never })).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", path: ["ask"] }),
    );
    expect(() => new PermissionStep({ ask: "Bash(" }, ["permission"])).toThrow(
      expect.objectContaining({ code: "INVALID_PATTERN", path: ["permission", "ask"] }),
    );
  });
});

// Claude Code's hooks reference: a PreToolUse "ask" shows permissionDecisionReason to the user.
describe("PermissionStep and a PreToolUse ask with a reason", () => {
  it("puts the hook's reason in PermissionRequest and in the question the answerer sees", async () => {
    const { engine, seen } = setup();
    const answer = vi.fn(() => "allow" as const);
    const step = new PermissionStep({ defaultAnswer: answer });
    await step.authorize(engine, {
      ...call,
      reason: "Bash wants to act on make",
      pre: { permission: "ask", permissionReason: "make deploys to production" },
    });
    expect(seen[0]).toMatchObject({
      eventType: "PermissionRequest",
      reason: "make deploys to production",
    });
    expect(answer).toHaveBeenCalledWith(
      expect.objectContaining({ reason: "make deploys to production" }),
    );
  });

  it("carries the reason from a real ask answer through runTool's authorize", async () => {
    const { engine, seen } = setup();
    engine.register({
      event: "PreToolUse",
      handler: () => ask({ permissionReason: "rm is irreversible" }),
    });
    const step = new PermissionStep({ defaultAnswer: "allow" });
    await runTool(engine, call, async () => ({ output: "" }), {
      authorize: async (args, pre) => (await step.authorize(engine, { ...call, args, pre })).args,
    });
    expect(seen[0]).toMatchObject({ eventType: "PermissionRequest", reason: "rm is irreversible" });
  });
});
