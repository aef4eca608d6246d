import { type AuditEvent, createEvent, HookError } from "@a3s-lab/hooks-core";
import type { HookEventMessage, HookResponseMessage } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { HookRunner, type LocalHook } from "./hook-runner.js";
import type { RemoteHookContext, RemoteHookHandler } from "./types.js";

function runner(handler: RemoteHookHandler, wanted: readonly AuditEvent["type"][] = []) {
  const sent: HookResponseMessage[] = [];
  const errors: HookError[] = [];
  const audited: AuditEvent[] = [];
  const hook: LocalHook = {
    id: "h",
    event: "PreToolUse",
    handler,
    failBehavior: undefined,
    name: undefined,
  };
  const r = new HookRunner({
    hook: (id) => (id === "h" ? hook : undefined),
    send: (m) => void sent.push(m),
    error: (e) => void errors.push(e),
    audit: (record) => void audited.push(record),
    wantsAudit: (type) => wanted.includes(type),
  });
  return { r, sent, errors, audited };
}

const firing = (extra: Partial<HookEventMessage> = {}): HookEventMessage => {
  const payload = createEvent("PreToolUse", {
    sessionId: "s",
    tool: "Bash",
    args: { command: "ls" },
    eventId: "e1",
  });
  return {
    hookId: "h",
    eventType: "PreToolUse",
    sessionId: "s",
    timestamp: payload.timestamp,
    eventId: "e1",
    deadlineMs: 123,
    payload: payload as unknown as Record<string, unknown>,
    ...extra,
  };
};

describe("HookRunner", () => {
  it("gives the handler its ids and deadline, and answers a plain continue", () => {
    let seen: RemoteHookContext | undefined;
    const { r, sent } = runner((_e, ctx) => {
      seen = ctx;
      return { action: "continue" };
    });
    r.handle(firing());
    expect(seen).toMatchObject({ hookId: "h", sessionId: "s", eventId: "e1", deadline: 123 });
    expect(sent).toEqual([{ hookId: "h", eventId: "e1", action: "continue" }]);
  });

  it("tells onAbort listeners and the signal about the agent's cancellation, once", async () => {
    const heard: unknown[] = [];
    let ctx!: RemoteHookContext;
    const { r, sent } = runner((_e, c) => {
      ctx = c;
      c.onAbort?.((reason) => heard.push(reason));
      const stop = c.onAbort?.(() => heard.push("removed listener ran"));
      stop?.();
      return new Promise(() => undefined);
    });
    r.handle(firing());
    expect(r.inflight).toBe(1);
    r.handle(firing({ cancel: true, cancelReason: "no answer within 5000 ms" }));
    r.handle(firing({ cancel: true }));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      code: "ABORTED",
      message: "the agent stopped waiting: no answer within 5000 ms",
    });
    // A signal asked for after the abort is aborted already, with the same reason.
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe(heard[0]);
    let late: unknown;
    ctx.onAbort?.((reason) => (late = reason));
    expect(late).toBe(heard[0]);
    expect(r.inflight).toBe(0);
    expect(sent).toEqual([]);
  });

  it("aborts every running handler when the connection drops, even if a listener throws", () => {
    const signals: AbortSignal[] = [];
    const { r } = runner((_e, ctx) => {
      ctx.onAbort?.(() => {
        throw new Error("cleanup bug");
      });
      signals.push(ctx.signal);
      return new Promise(() => undefined);
    });
    r.handle(firing({ eventId: "a" }));
    r.handle(firing({ eventId: "b" }));
    r.abortAll(new HookError("UNAVAILABLE", "connection lost"));
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    expect(r.inflight).toBe(0);
  });

  it("builds exactly the audit records wanted: none when off, info's without completed", () => {
    const block = () => ({ action: "block" as const, reason: "no" });
    const modify = () => ({ action: "continue" as const, modified: { args: { x: 1 } } });
    const run = (handler: RemoteHookHandler, wanted: readonly AuditEvent["type"][]) => {
      const { r, audited } = runner(handler, wanted);
      r.handle(firing());
      return audited;
    };
    const base = { hookId: "h", event: "PreToolUse", eventId: "e1", time: expect.any(Number) };

    expect(run(block, [])).toEqual([]);
    expect(run(modify, [])).toEqual([]);
    const info = ["failed", "blocked", "modified"] as const;
    expect(run(block, info)).toEqual([{ type: "blocked", ...base, reason: "no" }]);
    expect(run(modify, info)).toEqual([
      { type: "modified", ...base, paths: ["args.x"], conflicts: [] },
    ]);
    expect(run(() => ({ action: "continue" }), info)).toEqual([]);
    const verbose = [...info, "started", "completed"] as const;
    expect(run(block, verbose).map((r) => r.type)).toEqual(["started", "completed", "blocked"]);
    expect(run(modify, verbose)[1]).toEqual({
      type: "completed",
      ...base,
      action: "continue",
      duration: expect.any(Number),
    });
  });

  it("cuts long text in what it sends: a block's reason, a failure's error", () => {
    const { r, sent } = runner(() => ({ action: "block", reason: "r".repeat(10_000) }));
    r.handle(firing());
    expect(sent[0]).toEqual({
      hookId: "h",
      eventId: "e1",
      action: "block",
      reason: `${"r".repeat(8192)}… (1808 more characters)`,
    });
    const failing = runner(() => {
      throw new Error("e".repeat(9000));
    });
    failing.r.handle(firing());
    expect(failing.sent[0]!.error).toBe(`${"e".repeat(8192)}… (808 more characters)`);
  });

  it("fails the hook with LIMIT_EXCEEDED when modified is too big to send", () => {
    const { r, sent, errors } = runner(() => ({
      action: "continue",
      modified: { args: { command: "y".repeat(4_000_000) } },
    }));
    r.handle(firing());
    expect(sent).toEqual([
      {
        hookId: "h",
        eventId: "e1",
        action: "continue",
        error: expect.stringMatching(/^HookResponse\.modified: \d+ bytes of JSON/),
      },
    ]);
    expect(errors.map((e) => e.code)).toEqual(["LIMIT_EXCEEDED"]);
  });
});
