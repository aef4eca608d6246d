import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { HookEngine } from "../engine/hook-engine.js";
import { modify } from "../merge/hook-response.js";
import { safeNormalizeHookOutput } from "../merge/normalize-output.js";
import { claudeCodeEvents } from "./claude-code-events.js";
import { createEvent } from "./create-event.js";
import type { HookEvent } from "./event-schemas.js";
import { defineEvent, eventDefinition } from "./event-spec.js";

const make = (name: string, fields: object) =>
  // biome-ignore lint/suspicious/noExplicitAny: events typed by the test's own fields only
  createEvent(name as any, { sessionId: "s", ...fields } as any) as HookEvent;

for (const d of Object.values(claudeCodeEvents)) defineEvent(d);

const sessionStart = make("SessionStart", { source: "startup" });
const normalise = (event: HookEvent, hso: Record<string, unknown>) =>
  safeNormalizeHookOutput(
    { hookSpecificOutput: { hookEventName: event.eventType, ...hso } },
    { event },
  );

function failure(result: ReturnType<typeof normalise>): HookError {
  expect(result.success).toBe(false);
  return (result as { error: HookError }).error;
}

describe("answer fields in Claude Code's hookSpecificOutput", () => {
  it("read watchPaths of SessionStart, CwdChanged and FileChanged as a modification", () => {
    const events = [
      sessionStart,
      make("CwdChanged", { oldCwd: "/a", newCwd: "/b" }),
      make("FileChanged", { filePath: "/b/.env", fileName: ".env", event: "change" }),
    ];
    for (const event of events) {
      expect(normalise(event, { watchPaths: ["/b/.env", "/b/.envrc"] })).toEqual({
        success: true,
        data: { action: "continue", modified: { watchPaths: ["/b/.env", "/b/.envrc"] } },
      });
    }
  });

  it("refuse a bad watchPaths with INVALID_OUTPUT naming the field", () => {
    for (const bad of [
      "/one/path",
      ["relative/path"],
      [42],
      ["/x".padEnd(10 * 1024 * 1024, "x")],
    ]) {
      const error = failure(normalise(sessionStart, { watchPaths: bad }));
      expect(error).toBeInstanceOf(HookError);
      expect(error.code).toBe("INVALID_OUTPUT");
      expect(error.message).toContain("hookSpecificOutput.watchPaths");
    }
    const many = Array.from({ length: 101 }, (_, i) => `/p/${i}`);
    expect(failure(normalise(sessionStart, { watchPaths: many })).message).toContain("watchPaths");
  });

  it("ignore an answer field the event does not have", () => {
    const stop = make("Stop", { stopHookActive: false });
    expect(normalise(stop, { watchPaths: ["/x"] })).toEqual({
      success: true,
      data: { action: "continue" },
    });
  });

  it("read WorktreeCreate's worktreePath, MessageDisplay's displayContent and the elicitation answers", () => {
    expect(normalise(make("WorktreeCreate", { name: "w" }), { worktreePath: "/wt/w" })).toEqual({
      success: true,
      data: { action: "continue", modified: { worktreePath: "/wt/w" } },
    });
    const display = make("MessageDisplay", {
      turnId: "t",
      messageId: "m",
      index: 0,
      final: true,
      delta: "**hi**\n",
    });
    expect(normalise(display, { displayContent: "hi\n" })).toEqual({
      success: true,
      data: { action: "continue", modified: { displayContent: "hi\n" } },
    });
    const elicitation = make("Elicitation", { mcpServerName: "s", message: "name?" });
    expect(normalise(elicitation, { action: "accept", content: { name: "x" } })).toEqual({
      success: true,
      data: { action: "continue", modified: { action: "accept", content: { name: "x" } } },
    });
    expect(failure(normalise(elicitation, { action: "maybe" })).message).toContain(
      "hookSpecificOutput.action",
    );
  });

  it("a PreModelSwitch permissionDecision deny blocks the switch", () => {
    const pre = make("PreModelSwitch", { fromModel: "a", toModel: "b" });
    expect(normalise(pre, { permissionDecision: "deny", permissionDecisionReason: "no" })).toEqual({
      success: true,
      data: { action: "block", reason: "no" },
    });
  });
});

describe("merging answer fields", () => {
  it("watch paths of several hooks add up, deduplicated, in execution order", async () => {
    const engine = new HookEngine();
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: ["/a", "/b"] }) });
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: ["/b", "/c"] }) });
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: null }) });
    const result = await engine.fire(sessionStart);
    expect(result.action).toBe("continue");
    expect((result.event as { watchPaths?: string[] }).watchPaths).toEqual(["/a", "/b", "/c"]);
    expect(result.conflicts).toEqual([]);
  });

  it("the union is capped: paths past the cap are dropped with a warning", async () => {
    const engine = new HookEngine();
    const batch = (from: number) => Array.from({ length: 80 }, (_, i) => `/p/${from + i}`);
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: batch(0) }) });
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: batch(80) }) });
    const result = await engine.fire(sessionStart);
    const paths = (result.event as { watchPaths?: string[] }).watchPaths ?? [];
    expect(paths).toHaveLength(100);
    expect(paths.at(-1)).toBe("/p/99");
    expect(result.warnings.join("\n")).toContain("watchPaths");
  });

  it("an SDK hook's relative watch path fails that hook", async () => {
    const engine = new HookEngine();
    engine.register({ event: "SessionStart", handler: () => modify({ watchPaths: ["rel"] }) });
    const result = await engine.fire(sessionStart);
    expect(result.modified).toBe(false);
    expect(result.outcomes[0]?.status).toBe("failed");
    expect(result.outcomes[0]?.error?.message).toContain("watchPaths");
  });

  it("MessageDisplay's delta is what was streamed: a hook changes displayContent only", async () => {
    const engine = new HookEngine();
    engine.register({ event: "MessageDisplay" as "Stop", handler: () => modify({ delta: "x" }) });
    const display = make("MessageDisplay", {
      turnId: "t",
      messageId: "m",
      index: 0,
      final: true,
      delta: "d",
    });
    const result = await engine.fire(display);
    expect(result.outcomes[0]?.error?.code).toBe("INVALID_MODIFICATION");
  });
});

describe("the answers option of defineEvent", () => {
  it("gives a host event answer fields a command hook sets through hookSpecificOutput", async () => {
    defineEvent("ReviewDone", {
      schema: z.object({ pr: z.string(), labels: z.optional(z.array(z.string())) }),
      answers: { labels: { merge: "union", maxItems: 3 } },
    });
    const event = make("ReviewDone", { pr: "1" });
    expect(normalise(event, { labels: ["a"] })).toEqual({
      success: true,
      data: { action: "continue", modified: { labels: ["a"] } },
    });
    const engine = new HookEngine();
    engine.register({
      event: "ReviewDone" as "Stop",
      handler: () => modify({ labels: ["a", "b"] }),
    });
    engine.register({
      event: "ReviewDone" as "Stop",
      handler: () => modify({ labels: ["b", "c", "d"] }),
    });
    const result = await engine.fire(event);
    expect((result.event as { labels?: string[] }).labels).toEqual(["a", "b", "c"]);
  });

  it("refuses a bad answers option with INVALID_CONFIG naming the field", () => {
    const schema = z.object({ pr: z.string(), labels: z.optional(z.array(z.string())) });
    const bad: [unknown, string][] = [
      [[], "answers"],
      [{ nope: {} }, "answers.nope"],
      [{ labels: { merge: "sum" } }, "answers.labels.merge"],
      [{ labels: { merge: "union", maxItems: 0 } }, "answers.labels.maxItems"],
      [{ pr: { merge: "union" } }, "answers.pr.merge"],
      [{ labels: { stdout: "yes" } }, "answers.labels.stdout"],
    ];
    for (const [answers, path] of bad) {
      expect(() =>
        // biome-ignore lint/suspicious/noExplicitAny: hostile input on purpose
        eventDefinition("BadAnswers", { schema, answers } as any),
      ).toThrowError(
        expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining(path) }),
      );
    }
  });
});
