import {
  createEvent,
  HookEngine,
  type HookResponse,
  type HookResult,
  normalizeHookOutput,
  type PermissionRequestEvent,
  type PreToolUseEvent,
} from "@a3s-lab/hooks-core";
import type {
  PermissionRequestHookSpecificOutput,
  PreToolUseHookSpecificOutput,
  SyncHookJSONOutput,
} from "@anthropic-ai/claude-agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolInput } from "../test/fixtures/sdk-inputs.js";
import type { BridgedSdkEvent } from "./sdk-events.js";
import { PROMPT_REWRITE_REASON, toSdkOutput } from "./to-sdk-output.js";

const key = fc.constantFrom("command", "path", "timeout", "flags");
/** What one hook may answer on a tool event. */
const response: fc.Arbitrary<HookResponse> = fc.oneof(
  fc.record(
    {
      action: fc.constant("continue" as const),
      modified: fc
        .dictionary(key, fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: null }))
        .map((args) => ({ args })),
      permission: fc.constantFrom("allow" as const, "ask" as const),
      additionalContext: fc.string({ minLength: 1, maxLength: 20 }),
      systemMessage: fc.string({ maxLength: 20 }),
    },
    { requiredKeys: ["action"] },
  ),
  fc.record({
    action: fc.constant("block" as const),
    reason: fc.string({ minLength: 1, maxLength: 20 }),
  }),
  fc.constant({ action: "skip" as const }),
);

/** The merged result of `responses` answered in order on a tool event. */
async function resultOf(
  event: "PreToolUse" | "PermissionRequest",
  args: Record<string, unknown>,
  responses: HookResponse[],
): Promise<HookResult<PreToolUseEvent | PermissionRequestEvent>> {
  const engine = new HookEngine({ auditLevel: "off" });
  for (const r of responses) engine.register({ event, handler: () => r });
  return engine.fire(createEvent(event, { sessionId: "s", tool: "Bash", args }));
}

type PreSpecific = PreToolUseHookSpecificOutput;
type PermissionSpecific = PermissionRequestHookSpecificOutput;

describe("toSdkOutput", () => {
  it("PreToolUse: a hook's respond denies the tool and gives its answer to the model as the reason", async () => {
    const result = await resultOf("PreToolUse", { command: "ls" }, [
      { action: "respond", output: "a.txt b.txt (cached)" },
    ]);
    const specific = toSdkOutput(result, "PreToolUse").hookSpecificOutput as PreSpecific;
    expect(specific).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "a.txt b.txt (cached)",
    });
  });

  it("PreToolUse: says what the merged result says, and the SDK's reading of it (core's Claude Code dialect) agrees", async () => {
    await fc.assert(
      fc.asyncProperty(toolInput, fc.array(response, { maxLength: 4 }), async (args, answers) => {
        const result = await resultOf("PreToolUse", args, answers);
        const out = toSdkOutput(result, "PreToolUse");
        const specific = out.hookSpecificOutput as PreSpecific | undefined;
        const read = normalizeHookOutput(out);

        if (result.action === "block") {
          expect(specific?.permissionDecision).toBe("deny");
          expect(specific?.permissionDecisionReason).toBe(result.reason);
          expect(read).toMatchObject({ action: "block", reason: result.reason });
          return;
        }
        expect(read.action).toBe("continue");
        expect(specific?.permissionDecision).toBe(result.permission);
        expect(read.action === "continue" ? read.permission : "?").toBe(result.permission);
        // updatedInput replaces the whole input: it is the arguments the hooks left.
        if (result.modified) expect(specific?.updatedInput).toEqual(result.event.args);
        else expect(specific?.updatedInput).toBeUndefined();
        expect(specific?.additionalContext).toBe(result.additionalContext);
        expect(out.systemMessage).toBe(
          result.systemMessages.length ? result.systemMessages.join("\n") : undefined,
        );
      }),
      { numRuns: 150 },
    );
  });

  it("PermissionRequest: a block denies, an allow allows with the new arguments, anything else leaves the decision to the SDK", async () => {
    await fc.assert(
      fc.asyncProperty(toolInput, fc.array(response, { maxLength: 4 }), async (args, answers) => {
        const result = await resultOf("PermissionRequest", args, answers);
        const out = toSdkOutput(result, "PermissionRequest");
        const decision = (out.hookSpecificOutput as PermissionSpecific | undefined)?.decision;
        if (result.action === "block") {
          expect(decision).toEqual({ behavior: "deny", message: result.reason });
          expect(normalizeHookOutput(out).action).toBe("block");
        } else if (result.permission === "allow") {
          expect(decision).toEqual({
            behavior: "allow",
            ...(result.modified ? { updatedInput: result.event.args } : {}),
          });
        } else {
          expect(decision).toBeUndefined();
        }
      }),
      { numRuns: 150 },
    );
  });

  it("never answers allow for a result that blocks, on any event", async () => {
    const events = ["PreToolUse", "PermissionRequest"] as const satisfies BridgedSdkEvent[];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...events),
        toolInput,
        fc.array(response, { minLength: 1, maxLength: 4 }),
        async (event, args, answers) => {
          const result = await resultOf(event, args, answers);
          const read = normalizeHookOutput(toSdkOutput(result, event));
          if (result.action === "block") expect(read.action).toBe("block");
          if (read.action === "continue" && read.permission === "allow") {
            expect(result.permission).toBe("allow");
          }
        },
      ),
    );
  });

  const blocked = async (
    name: "UserPromptSubmit" | "Stop" | "PreCompact" | "SessionStart" | "SubagentStart",
  ) => {
    const engine = new HookEngine({ auditLevel: "off" });
    engine.register({ event: name, handler: () => ({ action: "block", reason: "policy" }) });
    const inits = {
      UserPromptSubmit: { sessionId: "s", prompt: "hi" },
      Stop: { sessionId: "s", stopHookActive: false },
      PreCompact: { sessionId: "s", trigger: "auto" },
      SessionStart: { sessionId: "s", source: "startup" },
      SubagentStart: { sessionId: "s", subagentId: "a", subagentType: "t", description: "" },
    } as const;
    return engine.fire(createEvent(name, inits[name] as never));
  };

  it.each([
    ["UserPromptSubmit", { decision: "block", reason: "policy" }],
    ["Stop", { decision: "block", reason: "policy" }],
    ["PreCompact", { decision: "block", reason: "policy" }],
    ["SessionStart", { continue: false, stopReason: "policy" }],
    ["SubagentStart", { continue: false, stopReason: "policy" }],
  ] as const)("%s: a block becomes %o", async (name, expected) => {
    const out = toSdkOutput(await blocked(name), name);
    expect(out).toEqual(expected satisfies SyncHookJSONOutput);
  });

  it("UserPromptSubmit: a rewritten prompt cannot be sent, so the prompt is blocked rather than sent unchanged", async () => {
    const engine = new HookEngine({ auditLevel: "off" });
    engine.register({
      event: "UserPromptSubmit",
      handler: () => ({ action: "continue", modified: { prompt: "[redacted]" } }),
    });
    const result = await engine.fire(
      createEvent("UserPromptSubmit", { sessionId: "s", prompt: "my key is sk-123" }),
    );
    expect(toSdkOutput(result, "UserPromptSubmit")).toEqual({
      decision: "block",
      reason: PROMPT_REWRITE_REASON,
    });
  });

  it("PostToolUse: a rewritten output becomes updatedToolOutput, with the hooks' context", async () => {
    const engine = new HookEngine({ auditLevel: "off" });
    engine.register({
      event: "PostToolUse",
      handler: () => ({
        action: "continue",
        modified: { result: { output: "[redacted]" } },
        additionalContext: "output was redacted",
      }),
    });
    const result = await engine.fire(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool: "Read",
        args: { file_path: ".env" },
        result: { success: true, output: "SECRET=1", duration: 1 },
      }),
    );
    expect(toSdkOutput(result, "PostToolUse")).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        updatedToolOutput: "[redacted]",
        additionalContext: "output was redacted",
      },
    });
  });

  // Claude Code's hooks reference, "PostToolUse decision control": `decision: "block"` prompts
  // Claude with the `reason` (the tool already ran).
  it("PostToolUse: a block after the tool ran travels as decision block with its reason", async () => {
    const engine = new HookEngine({ auditLevel: "off" });
    engine.register({
      event: "PostToolUse",
      handler: () => normalizeHookOutput({ decision: "block", reason: "lint failed" }),
    });
    const result = await engine.fire(
      createEvent("PostToolUse", {
        sessionId: "s",
        tool: "Write",
        args: { file_path: "a.ts" },
        result: { success: true, output: "ok", duration: 1 },
      }),
    );
    expect(result.action).toBe("continue");
    expect(toSdkOutput(result, "PostToolUse")).toEqual({
      decision: "block",
      reason: "lint failed",
    });
  });

  it.each([
    "PostToolUseFailure",
    "SubagentStop",
    "Notification",
    "Stop",
    "SessionStart",
    "UserPromptSubmit",
  ] as const)("%s: additionalContext travels in hookSpecificOutput", (name) => {
    const result = {
      action: "continue",
      event: {},
      modified: false,
      systemMessages: ["note"],
      suppressOutput: true,
      additionalContext: "ctx",
      outcomes: [],
      conflicts: [],
      warnings: [],
    } as unknown as HookResult;
    expect(toSdkOutput(result, name)).toEqual({
      systemMessage: "note",
      suppressOutput: true,
      hookSpecificOutput: { hookEventName: name, additionalContext: "ctx" },
    });
  });

  it("PermissionDenied: a hook's retry travels as the SDK's hookSpecificOutput.retry", () => {
    const result = {
      action: "continue",
      event: { retry: true },
      modified: true,
      systemMessages: [],
      suppressOutput: false,
      outcomes: [],
      conflicts: [],
      warnings: [],
    } as unknown as HookResult;
    expect(toSdkOutput(result, "PermissionDenied")).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true },
    });
  });

  it.each(["SessionEnd", "PostCompact", "PermissionDenied"] as const)(
    "%s: nothing to say when the hooks said nothing",
    (name) => {
      const result = {
        action: "continue",
        event: {},
        modified: false,
        systemMessages: [],
        suppressOutput: false,
        additionalContext: "ctx",
        outcomes: [],
        conflicts: [],
        warnings: [],
      } as unknown as HookResult;
      expect(toSdkOutput(result, name)).toEqual({});
    },
  );
});
