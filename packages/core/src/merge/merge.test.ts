import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMergePatch } from "../base/json-merge-patch.js";
import { validate } from "../base/validation.js";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import { eventSchemas, type PreToolUseEvent } from "../events/event-schemas.js";
import { CONTINUE, type HookResponse } from "./hook-response.js";
import { emptyResult, mergeOutcomes, type OutcomeInput, ResultFolder } from "./merge.js";

const event: PreToolUseEvent = createEvent("PreToolUse", {
  sessionId: "s",
  tool: "Bash",
  args: { command: "ls", cwd: "/tmp" },
});

const ok = (hookId: string, response: HookResponse): OutcomeInput => ({
  hookId,
  status: "ok",
  response,
  failBehavior: "continue",
  duration: 1,
});

const key = fc.constantFrom("command", "timeout", "cwd", "env", "flags");
const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
const argsPatch = fc.dictionary(key, fc.oneof(value, fc.dictionary(key, value, { maxKeys: 2 })), {
  maxKeys: 3,
});
const response: fc.Arbitrary<HookResponse> = fc.oneof(
  fc.constant<HookResponse>({ action: "continue" }),
  argsPatch.map<HookResponse>((args) => ({ action: "continue", modified: { args } })),
  fc
    .string({ minLength: 1, maxLength: 6 })
    .map<HookResponse>((reason) => ({ action: "block", reason })),
  fc.nat(1000).map<HookResponse>((delay) => ({ action: "retry", delay })),
  fc.constant<HookResponse>({ action: "skip" }),
  fc
    .constantFrom("allow", "ask")
    .map<HookResponse>((permission) => ({ action: "continue", permission: permission as "allow" })),
);
const outcomes = fc.array(response, { maxLength: 8 }).map((rs) => rs.map((r, i) => ok(`h${i}`, r)));

describe("mergeOutcomes (properties)", () => {
  it("an empty list is continue with the very same event", () => {
    const result = mergeOutcomes(event, []);
    expect(result).toEqual(emptyResult(event));
    expect(result.event).toBe(event);
  });

  it("a block anywhere before a skip always wins, with the first block's reason", () => {
    fc.assert(
      fc.property(outcomes, (list) => {
        const firstBlock = list.findIndex((o) => o.response?.action === "block");
        const firstSkip = list.findIndex((o) => o.response?.action === "skip");
        const result = mergeOutcomes(event, list);
        if (firstBlock !== -1 && (firstSkip === -1 || firstBlock < firstSkip)) {
          expect(result.action).toBe("block");
          expect(result.reason).toBe((list[firstBlock]!.response as { reason: string }).reason);
          expect(result.blockedBy).toBe(`h${firstBlock}`);
          expect(result.permission).toBe("deny");
        } else {
          expect(result.action).not.toBe("block");
        }
      }),
    );
  });

  it("block > retry > continue, and retry carries the largest delay before the fold ends", () => {
    fc.assert(
      fc.property(outcomes, (list) => {
        const end = list.findIndex(
          (o) => o.response?.action === "block" || o.response?.action === "skip",
        );
        const folded = end === -1 ? list : list.slice(0, end + 1);
        const result = mergeOutcomes(event, list);
        if (result.action === "block") return;
        const delays = folded
          .filter((o) => o.response?.action === "retry")
          .map((o) => (o.response as { delay: number }).delay);
        if (delays.length === 0) expect(result.action).toBe("continue");
        else expect(result).toMatchObject({ action: "retry", retryDelay: Math.max(...delays) });
      }),
    );
  });

  it("takes a short cut for all-continue firings that folds exactly as the folder does", () => {
    // Outcomes as firings make them: mostly the shared CONTINUE, fire-and-forget runs, and
    // now and then anything else, which must send the whole list through the folder.
    const input: fc.Arbitrary<OutcomeInput> = fc.oneof(
      fc.record({
        hookId: fc.constantFrom("a", "b"),
        name: fc.option(fc.constant("named"), { nil: undefined }),
        status: fc.constantFrom("ok" as const, "async" as const),
        response: fc.constant(CONTINUE),
        failBehavior: fc.constantFrom("continue" as const, "block" as const),
        duration: fc.nat(50),
      }),
      response.map((r) => ok("c", r)),
      fc.constantFrom<OutcomeInput>(
        { hookId: "d", status: "failed", failBehavior: "block", duration: 1 },
        { hookId: "e", status: "timeout", failBehavior: "continue", duration: 2 },
        { hookId: "f", status: "cancelled", failBehavior: "continue", duration: 0 },
      ),
    );
    fc.assert(
      fc.property(fc.array(input, { maxLength: 6 }), (list) => {
        const folder = new ResultFolder(event);
        for (const outcome of list) folder.add(outcome);
        const result = mergeOutcomes(event, list);
        expect(result).toEqual(folder.finish());
        if (!result.modified) expect(result.event).toBe(event);
        // The outcome list is the result's own, never an input or the shared empty list.
        if (list.length > 0) expect(Object.isFrozen(result.outcomes)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("applying the patches one by one equals the fold's merged event", () => {
    fc.assert(
      fc.property(fc.array(argsPatch, { maxLength: 6 }), (patches) => {
        const list = patches.map((args, i) =>
          ok(`h${i}`, { action: "continue", modified: { args } }),
        );
        let expected: unknown = event;
        for (const args of patches) expected = applyMergePatch(expected, { args });
        expect(mergeOutcomes(event, list).event).toEqual(expected);
      }),
    );
  });

  it("never mutates the event it was given", () => {
    fc.assert(
      fc.property(outcomes, (list) => {
        const before = JSON.stringify(event);
        mergeOutcomes(event, list);
        expect(JSON.stringify(event)).toBe(before);
      }),
    );
  });

  it("the engine's result depends on execution order only, not on completion order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(response, { minLength: 1, maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        async (responses, picks) => {
          const run = async (releaseOrder: number[]) => {
            const engine = new HookEngine();
            const gates: (() => void)[] = [];
            for (const [i, r] of responses.entries()) {
              engine.register({
                id: `h${i}`,
                event: "PreToolUse",
                handler: () => new Promise<HookResponse>((resolve) => gates.push(() => resolve(r))),
              });
            }
            const pending = engine.fire(event);
            await Promise.resolve();
            for (const i of releaseOrder) gates[i]!();
            const { outcomes: o, ...rest } = await pending;
            return { ...rest, outcomes: o.map(({ duration: _d, ...x }) => x) };
          };
          const inOrder = responses.map((_, i) => i);
          const shuffled = [...inOrder];
          const it = picks[Symbol.iterator]();
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = it.next().value! % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          expect(await run(shuffled)).toEqual(await run(inOrder));
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("mergeOutcomes (rules)", () => {
  it("joins additional context by newlines, keeps every system message, ORs suppressOutput", () => {
    const result = mergeOutcomes(event, [
      ok("a", { action: "continue", additionalContext: "one", systemMessage: "m1" }),
      ok("b", { action: "continue", additionalContext: "two", suppressOutput: true }),
      ok("c", { action: "continue", systemMessage: "m2" }),
    ]);
    expect(result).toMatchObject({
      additionalContext: "one\ntwo",
      systemMessages: ["m1", "m2"],
      suppressOutput: true,
    });
  });

  it("ask beats allow whatever the order", () => {
    const allow = ok("a", { action: "continue", permission: "allow" });
    const ask = ok("b", { action: "continue", permission: "ask" });
    expect(mergeOutcomes(event, [allow, ask]).permission).toBe("ask");
    expect(mergeOutcomes(event, [ask, allow]).permission).toBe("ask");
    expect(mergeOutcomes(event, [allow]).permission).toBe("allow");
  });

  it("a failed or timed-out hook contributes its fail behaviour", () => {
    const failed: OutcomeInput = {
      hookId: "f",
      status: "failed",
      failBehavior: "continue",
      duration: 1,
    };
    const closed: OutcomeInput = {
      hookId: "g",
      name: "guard",
      status: "timeout",
      failBehavior: "block",
      duration: 5,
    };
    expect(mergeOutcomes(event, [failed]).action).toBe("continue");
    const result = mergeOutcomes(event, [failed, closed]);
    expect(result.action).toBe("block");
    expect(result.reason).toMatch(/^hook guard timed out/);
  });

  it("refuses patches that reach for the prototype, and leaves Object.prototype alone", () => {
    const patch = JSON.parse('{"args": {"__proto__": {"polluted": true}}}');
    const result = mergeOutcomes(event, [ok("p", { action: "continue", modified: patch })]);
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "INVALID_MODIFICATION" },
    });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("refuses a patch that breaks the event's schema when a validator is given", () => {
    const validateEvent = (e: unknown) =>
      validate(eventSchemas.PreToolUse, e, "INVALID_MODIFICATION");
    const result = mergeOutcomes(
      event,
      [ok("x", { action: "continue", modified: { args: null } })],
      { validateEvent },
    );
    expect(result.event).toBe(event);
    expect(result.outcomes[0]!.error!.message).toContain("args");
  });

  it("allows only the modifiable paths of each event (GenerateEnd: response.text, not response.usage)", () => {
    const end = createEvent("GenerateEnd", {
      sessionId: "s",
      prompt: "p",
      model: { name: "m" },
      response: {
        text: "hi",
        toolCalls: [],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        duration: 3,
      },
    });
    const good = mergeOutcomes(end, [
      ok("a", { action: "continue", modified: { response: { text: "hello" } } }),
    ]);
    expect(good.event.response).toMatchObject({ text: "hello", duration: 3 });
    const bad = mergeOutcomes(end, [
      ok("a", { action: "continue", modified: { response: { usage: null } } }),
    ]);
    expect(bad.event).toBe(end);
    expect(bad.outcomes[0]!.error!.message).toContain(
      "GenerateEnd allows hooks to modify response.text",
    );
  });
});

// Claude Code's hooks reference: `continue: false` stops Claude after the hooks run, takes
// precedence over any decision, and its `stopReason` is for the user, not for Claude.
describe("a hook that stops the turn (continue: false)", () => {
  const stop = (reason?: string): HookResponse => ({
    action: "continue",
    stopTurn: reason === undefined ? {} : { reason },
  });

  it("outranks a later block and ends the fold; the operation is blocked too", () => {
    const result = mergeOutcomes(event, [
      ok("a", { action: "continue", additionalContext: "ctx" }),
      ok("b", stop("build is red")),
      ok("c", { action: "block", reason: "for the model" }),
    ]);
    expect(result.stopTurn).toEqual({ hookId: "b", reason: "build is red" });
    expect(result).toMatchObject({ action: "block", reason: "build is red", blockedBy: "b" });
    expect(result.outcomes[2]?.ignored).toBe(true);
  });

  it("is not a block of Stop, where a block means 'go on'", () => {
    const stopEvent = createEvent("Stop", { sessionId: "s", stopHookActive: false });
    const result = mergeOutcomes(stopEvent, [ok("a", stop())]);
    expect(result.action).toBe("continue");
    expect(result.stopTurn).toEqual({ hookId: "a" });
  });

  it("is kept on an event that cannot block, with no warning", () => {
    const post = createEvent("PostToolUse", {
      sessionId: "s",
      tool: "Bash",
      args: {},
      result: { success: true, output: "", duration: 0 },
    });
    const result = mergeOutcomes(post, [ok("a", stop("enough"))]);
    expect(result).toMatchObject({
      action: "continue",
      stopTurn: { hookId: "a", reason: "enough" },
    });
    expect(result.warnings).toEqual([]);
  });
});

describe("permissionReason", () => {
  it("joins the reasons of the hooks whose decision won (ask over allow)", () => {
    const result = mergeOutcomes(event, [
      ok("a", { action: "continue", permission: "allow", permissionReason: "read-only" }),
      ok("b", { action: "continue", permission: "ask", permissionReason: "touches prod" }),
      ok("c", { action: "continue", permission: "ask", permissionReason: "after 6 pm" }),
    ]);
    expect(result.permission).toBe("ask");
    expect(result.permissionReason).toBe("touches prod\nafter 6 pm");
  });
});
