import { createEvent, type HookContext, HookError } from "@a3s-lab/hooks-core";
import { defaultTimers } from "@a3s-lab/hooks-core/internal";
import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";
import { RemoteClient } from "./remote-client.js";
import type { RemoteHook } from "./remote-hook.js";

function remoteHook(): RemoteHook {
  return {
    hookId: "h",
    engineId: "c/h",
    event: "PreToolUse",
    matcher: undefined,
    config: {},
    timeout: 5000,
    rejectedResponses: 0,
  };
}

function client() {
  const warnings: string[] = [];
  const c = new RemoteClient(
    "c",
    "secret",
    new RateLimiter({ burst: 1, perSecond: 1 }, defaultTimers),
    (m) => warnings.push(m),
  );
  const sent: HookEventMessage[] = [];
  c.stream = { send: (m) => void sent.push(m), close: () => undefined };
  return { c, sent, warnings };
}

const event = () =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

describe("RemoteClient.dispatch", () => {
  it("hears about an abort through ctx.onAbort: sends the cancellation and rejects", async () => {
    const { c, sent } = client();
    let abort!: (reason: unknown) => void;
    let stopped = 0;
    const ctx = {
      hookId: "c/h",
      sessionId: "s",
      eventId: "e",
      get signal(): AbortSignal {
        throw new Error("dispatch must not create a signal when onAbort is there");
      },
      onAbort(listener: (reason: unknown) => void) {
        abort = listener;
        return () => void stopped++;
      },
    } satisfies HookContext;
    const e = event();
    const answer = c.dispatch(remoteHook(), e, ctx);
    abort(new HookError("TIMEOUT", "no answer within 5000 ms"));
    await expect(answer).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(sent.map((m) => [m.eventId, m.cancel ?? false])).toEqual([
      [e.eventId, false],
      [e.eventId, true],
    ]);
    expect(sent[1]!.cancelReason).toBe("no answer within 5000 ms");
    expect(stopped).toBe(1);
    expect(c.pendingCount).toBe(0);
  });

  it("falls back to ctx.signal for a context without onAbort", async () => {
    const { c, sent } = client();
    const controller = new AbortController();
    const e = event();
    const answer = c.dispatch(remoteHook(), e, {
      hookId: "c/h",
      sessionId: "s",
      eventId: e.eventId,
      signal: controller.signal,
    });
    controller.abort(new HookError("ABORTED", "stop"));
    await expect(answer).rejects.toMatchObject({ code: "ABORTED" });
    expect(sent.at(-1)).toMatchObject({ cancel: true, cancelReason: "stop" });
  });

  it("resolves with the quick answer, and still warns about a late one", async () => {
    const { c, warnings } = client();
    const controller = new AbortController();
    const e = event();
    const answer = c.dispatch(remoteHook(), e, {
      hookId: "c/h",
      sessionId: "s",
      eventId: e.eventId,
      signal: controller.signal,
    });
    c.receive({ hookId: "h", eventId: e.eventId, action: "block", reason: "nope" });
    expect(await answer).toEqual({ action: "block", reason: "nope" });
    c.receive({ hookId: "h", eventId: e.eventId });
    expect(warnings).toEqual([expect.stringContaining("no firing waits for that answer")]);
    // Answered: the signal's listener is gone, so a later abort sends nothing.
    controller.abort();
  });
});
