import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { HookEngine } from "../engine/hook-engine.js";
import type { HookEvent } from "../index.js";
import { block, modify } from "../merge/hook-response.js";
import { claudeCodeEvents } from "./claude-code-events.js";
import { createEvent, validateEvent } from "./create-event.js";
import {
  defineEvent,
  eventSpecs,
  hookEventNames,
  isHookEventName,
  matcherSubject,
  resolveEventName,
} from "./event-spec.js";

// The catalogue is module state: each test defines its own event names.

const deploy = defineEvent("DeployStart", {
  schema: z.object({ target: z.string(), version: z.string() }),
  canBlock: true,
  modifiable: ["version"],
  matcherTarget: "target",
});

const fire = (engine: HookEngine, name: string, fields: object) =>
  // biome-ignore lint/suspicious/noExplicitAny: the event is typed by the test's own augmentation only
  engine.fire(createEvent(name as any, { sessionId: "s", ...fields } as any));

describe("defineEvent", () => {
  it("adds an event every part of the engine knows: names, schema, matcher, block, modify", async () => {
    expect(isHookEventName("DeployStart")).toBe(true);
    expect(hookEventNames).toContain("DeployStart");
    expect(resolveEventName("deploy_start")).toBe("DeployStart");
    expect(eventSpecs["DeployStart" as "Stop"]).toBe(deploy);
    expect(deploy).toMatchObject({ canBlock: true, matcherTarget: "target", toolEvent: false });

    const engine = new HookEngine();
    engine.register({
      event: "DeployStart" as "Stop",
      matcher: "prod",
      handler: () => block("frozen"),
    });
    engine.register({
      event: "DeployStart" as "Stop",
      matcher: "staging",
      handler: () => modify({ version: "2" }),
    });
    const prod = await fire(engine, "DeployStart", { target: "prod", version: "1" });
    expect(prod).toMatchObject({ action: "block", reason: "frozen" });
    const staging = await fire(engine, "DeployStart", { target: "staging", version: "1" });
    expect(staging.action).toBe("continue");
    expect((staging.event as unknown as { version: string }).version).toBe("2");
  });

  it("validates a defined event's fields like a built-in one's", () => {
    expect(() =>
      createEvent("DeployStart" as "Stop", { sessionId: "s", target: 1 } as never),
    ).toThrow(/DeployStart\.target: expected string/);
    const checked = validateEvent({
      eventType: "DeployStart",
      eventId: "e",
      sessionId: "s",
      timestamp: 1,
      metadata: {},
      target: "prod",
    });
    expect(checked.success).toBe(false);
    if (!checked.success) expect(checked.error.message).toMatch(/version/);
  });

  it("refuses a modification outside the modifiable fields", async () => {
    const engine = new HookEngine();
    engine.register({ event: "DeployStart" as "Stop", handler: () => modify({ target: "prod" }) });
    const result = await fire(engine, "DeployStart", { target: "dev", version: "1" });
    expect((result.event as unknown as { target: string }).target).toBe("dev");
    expect(result.outcomes[0]?.status).toBe("failed");
  });

  it("defining the identical definition again does nothing; a different one is refused", () => {
    const schema = z.object({ n: z.number() });
    const first = defineEvent("SameTwice", { schema, canBlock: true });
    expect(defineEvent("SameTwice", { schema, canBlock: true })).toBe(first);
    expect(() => defineEvent("SameTwice", { schema, canBlock: false })).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        message: expect.stringMatching(/^name: SameTwice is already defined differently/),
      }),
    );
  });

  it("built-ins cannot be redefined", () => {
    expect(() => defineEvent("PreToolUse", { schema: z.object({ tool: z.string() }) })).toThrow(
      /name: PreToolUse is a built-in event and cannot be redefined/,
    );
  });

  it.each([
    ["lowercase", "deployEnd", {}, /^name: expected a PascalCase event name/],
    ["too close to a built-in", "PreToolUSE", {}, /^name: PreToolUSE is too close to PreToolUse/],
    ["too close to an alias", "TOOLERROR", {}, /too close to PostToolUseFailure/],
    [
      "a schema that is not a zod object",
      "BadSchema",
      { schema: { a: 1 } },
      /^schema: expected a zod object/,
    ],
    [
      "a base field in the schema",
      "BadBase",
      { schema: z.object({ sessionId: z.string() }) },
      /^schema\.sessionId: is a field every event has/,
    ],
    [
      "a matcher target that is not a field",
      "BadTarget",
      { schema: z.object({ a: z.string() }), matcherTarget: "b" },
      /^matcherTarget: expected one of the event's fields \(a\), got "b"/,
    ],
    [
      "a modifiable path outside the fields",
      "BadModify",
      { schema: z.object({ a: z.string() }), modifiable: ["a", "eventId"] },
      /^modifiable\.1: expected one of the event's fields/,
    ],
    [
      "canBlock not a boolean",
      "BadBlock",
      { schema: z.object({}), canBlock: "yes" },
      /^canBlock: expected a boolean/,
    ],
  ])("refuses %s with INVALID_CONFIG naming the field", (_, name, init, message) => {
    const run = () => defineEvent(name, { schema: z.object({}), ...init } as never);
    expect(run).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    expect(run).toThrow(message);
    expect(isHookEventName(name)).toBe(false);
  });

  it("accepts only definitions it made", () => {
    expect(() => defineEvent({ ...deploy, name: "Forged" } as never)).toThrow(
      /^definition: expected a definition made by defineEvent/,
    );
  });

  it("keeps the catalogue views read-only", () => {
    expect(() => {
      (eventSpecs as Record<string, unknown>).Evil = deploy;
    }).toThrow(TypeError);
    expect(() => (hookEventNames as string[]).push("Evil")).toThrow(TypeError);
    expect(isHookEventName("Evil")).toBe(false);
  });

  it("a matcher target that is an object is tested by its name", () => {
    const event = createEvent("GenerateStart", {
      sessionId: "s",
      prompt: "p",
      model: { name: "m1" },
      tools: [],
    });
    expect(matcherSubject(event as HookEvent)).toBe("m1");
  });
});

describe("the catalogue shared through the realm's global", () => {
  // What any script in the realm can reach, without importing this package.
  const shared = () =>
    // biome-ignore lint/suspicious/noExplicitAny: probing whatever the global holds
    (globalThis as any)[Symbol.for("@a3s-lab/hooks-core/event-catalogue")];
  /** Every way in: write the record, redefine a property, or call the store's own add. */
  const tamper = (name: string, forged: object) => {
    const store = shared();
    const attempts = [
      () => {
        store.specs[name] = forged;
      },
      () => Object.defineProperty(store.specs, name, { value: forged }),
      () => store.add(forged),
      () => {
        store.version = 0;
      },
    ];
    for (const attempt of attempts) {
      try {
        attempt();
      } catch {
        // refused: what the test wants
      }
    }
  };
  const blocked = async (name: string, fields: object) => {
    const engine = new HookEngine();
    engine.register({ event: name as "Stop", handler: () => block("no") });
    return (await fire(engine, name, fields)).action;
  };

  it("cannot turn a built-in event's block into a continue or drop its schema", async () => {
    tamper(
      "PreToolUse",
      Object.freeze({ ...eventSpecs.PreToolUse, canBlock: false, schema: z.any() }),
    );
    expect(eventSpecs.PreToolUse.canBlock).toBe(true);
    expect(await blocked("PreToolUse", { tool: "Bash", args: { command: "rm -rf /" } })).toBe(
      "block",
    );
    expect(() => createEvent("PreToolUse", { sessionId: "s", tool: 1 } as never)).toThrow(
      /PreToolUse\.tool/,
    );
  });

  it("cannot rewrite an event a host defined", async () => {
    const guarded = defineEvent("GuardedRelease", {
      schema: z.object({ target: z.string() }),
      canBlock: true,
    });
    tamper("GuardedRelease", Object.freeze({ ...guarded, canBlock: false }));
    expect(eventSpecs["GuardedRelease" as "Stop"]).toBe(guarded);
    expect(await blocked("GuardedRelease", { target: "prod" })).toBe("block");
  });
});

describe("claudeCodeEvents", () => {
  it("are not in the catalogue until the host opts in, and then once", () => {
    expect(isHookEventName("FileChanged")).toBe(false);
    expect(defineEvent(claudeCodeEvents.FileChanged)).toBe(claudeCodeEvents.FileChanged);
    expect(defineEvent(claudeCodeEvents.FileChanged)).toBe(claudeCodeEvents.FileChanged);
    expect(isHookEventName("FileChanged")).toBe(true);
  });

  it("cover Claude Code's events that this library does not fire", () => {
    expect(Object.keys(claudeCodeEvents).sort()).toEqual(
      [
        "PostToolBatch",
        "UserPromptExpansion",
        "StopFailure",
        "Elicitation",
        "ElicitationResult",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Setup",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "PreModelSwitch",
        "PostModelSwitch",
        "MessageDisplay",
        "DirectoryAdded",
      ].sort(),
    );
  });

  it("a ready definition blocks and matches like a built-in", async () => {
    defineEvent(claudeCodeEvents.ConfigChange);
    const engine = new HookEngine();
    engine.register({
      event: "ConfigChange" as "Stop",
      matcher: "project_settings",
      handler: () => block("no"),
    });
    const project = await fire(engine, "ConfigChange", { source: "project_settings" });
    expect(project.action).toBe("block");
    const user = await fire(engine, "ConfigChange", { source: "user_settings" });
    expect(user.action).toBe("continue");
  });
});
