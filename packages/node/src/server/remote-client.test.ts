import {
  CONTINUE,
  createEvent,
  defaultTimers,
  type HookContext,
  HookError,
  type HookEventMessage,
  parseWireMessage,
  toHookResponse,
} from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";
import { quickResponse, RemoteClient } from "./remote-client.js";
import type { RemoteHook } from "./remote-hook.js";

/** What the schemas make of a HookResponse message: the authority quickResponse must agree with. */
function bySchema(raw: unknown) {
  const parsed = parseWireMessage("HookResponse", raw);
  if (!parsed.success) return undefined;
  const response = toHookResponse(parsed.data);
  if (!response.success) return undefined;
  return { hookId: parsed.data.hookId, eventId: parsed.data.eventId, response: response.data };
}

const id = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/),
  fc.constantFrom("", "a b", "x".repeat(101), "ü"),
);
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constant(""),
  fc.constant("r".repeat(70_000)),
);
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  text,
);

const hookId = fc.oneof({ weight: 4, arbitrary: id }, { weight: 1, arbitrary: anything });
const eventId = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 300 }) },
  { weight: 1, arbitrary: anything },
);
const action = fc.oneof(
  fc.constantFrom("continue", "block", "retry", "skip", "deny", ""),
  anything,
);
const reason = fc.oneof(text, anything);

/** HookResponse-like messages: mostly plausible, often subtly wrong. */
const message = fc.oneof(
  // The shapes the fast path answers, and their near misses.
  fc.record(
    { hookId, eventId, action, reason },
    { requiredKeys: ["hookId", "eventId"], noNullPrototype: true },
  ),
  // Every other field too: these go to the schemas.
  fc.record(
    {
      hookId,
      eventId,
      action,
      reason,
      systemMessage: text,
      error: text,
      modified: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()),
    },
    { requiredKeys: ["hookId", "eventId"], noNullPrototype: true },
  ),
);

describe("quickResponse", () => {
  it("agrees with the schemas whenever it answers", () => {
    let answered = 0;
    fc.assert(
      fc.property(message, (raw) => {
        const quick = quickResponse(raw);
        if (quick === undefined) return;
        answered++;
        expect(quick).toEqual(bySchema(raw));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(0);
  });

  it("answers the common shapes: a bare continue and a block with a reason", () => {
    expect(quickResponse({ hookId: "h", eventId: "e" })).toEqual({
      hookId: "h",
      eventId: "e",
      response: CONTINUE,
    });
    expect(quickResponse({ hookId: "h", eventId: "e", action: "continue" })?.response).toBe(
      CONTINUE,
    );
    expect(quickResponse({ hookId: "h", eventId: "e", action: "block", reason: "no" })).toEqual({
      hookId: "h",
      eventId: "e",
      response: { action: "block", reason: "no" },
    });
  });

  it("leaves everything else to the schemas", () => {
    for (const raw of [
      null,
      "continue",
      [],
      { hookId: "h", eventId: "e", action: "block" }, // no reason
      { hookId: "h", eventId: "e", action: "block", reason: "" },
      { hookId: "h", eventId: "e", error: "handler failed" },
      { hookId: "h", eventId: "e", systemMessage: "hi" },
      { hookId: "h", eventId: "e", action: undefined },
      { hookId: "bad id", eventId: "e" },
      { hookId: "h", eventId: "" },
      Object.assign(Object.create({ polluted: true }), { hookId: "h", eventId: "e" }),
    ]) {
      expect(quickResponse(raw)).toBeUndefined();
    }
  });
});

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
