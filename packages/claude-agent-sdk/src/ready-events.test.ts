import { block, claudeCodeEvents, defineEvent, HookEngine, modify } from "@a3s-lab/hooks-core";
import type { HookCallback, HookInput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { callOptions } from "../test/fixtures/sdk-inputs.js";
import { fromSdkInput } from "./from-sdk-input.js";
import { toAgentSdkHooks } from "./to-agent-sdk-hooks.js";

// Inputs as the Claude Code hooks reference shows them for each event.
const base = {
  session_id: "abc123",
  transcript_path: "/Users/me/.claude/projects/my-project/abc123.jsonl",
  cwd: "/Users/me/my-project",
};
const cwdChanged = {
  ...base,
  hook_event_name: "CwdChanged",
  old_cwd: "/Users/me/my-project",
  new_cwd: "/Users/me/my-project/src",
} as HookInput;
const fileChanged = {
  ...base,
  hook_event_name: "FileChanged",
  file_path: "/Users/me/my-project/.envrc",
  event: "change",
} as HookInput;
const configChange = {
  ...base,
  hook_event_name: "ConfigChange",
  source: "project_settings",
  file_path: "/Users/me/my-project/.claude/settings.json",
} as HookInput;
const elicitation = {
  ...base,
  hook_event_name: "Elicitation",
  mcp_server_name: "my-mcp-server",
  message: "Please provide your credentials",
  mode: "form",
  requested_schema: { type: "object", properties: { username: { type: "string" } } },
} as HookInput;
const worktreeCreate = {
  ...base,
  hook_event_name: "WorktreeCreate",
  name: "feature-auth",
} as HookInput;

describe("Claude Code's other events through the bridge", () => {
  it("registers no callback for a ready event the host has not defined", () => {
    const hooks = toAgentSdkHooks(new HookEngine());
    expect(hooks.CwdChanged).toBeUndefined();
    expect(fromSdkInput(cwdChanged)).toBeUndefined();
    expect(() => toAgentSdkHooks(new HookEngine(), { events: ["TaskCreated"] })).toThrow(
      /options\.events\[0\]: TaskCreated is not defined yet/,
    );
  });

  it("maps a defined event's input into camelCase and answers its hooks' fields in the SDK's form", async () => {
    for (const name of [
      "CwdChanged",
      "FileChanged",
      "ConfigChange",
      "Elicitation",
      "WorktreeCreate",
    ] as const) {
      defineEvent(claudeCodeEvents[name]);
    }
    const engine = new HookEngine();
    const seen: unknown[] = [];
    engine.register({
      event: "CwdChanged" as never,
      handler: (event) => {
        seen.push(event);
        return modify({ watchPaths: ["/Users/me/my-project/src/.envrc"] } as never);
      },
    });
    engine.register({
      event: "FileChanged" as never,
      matcher: ".envrc|.env",
      handler: (event) => {
        seen.push(event);
        return undefined;
      },
    });
    engine.register({
      event: "ConfigChange" as never,
      matcher: "project_settings",
      handler: () => block("settings are locked during this session"),
    });
    engine.register({
      event: "Elicitation" as never,
      handler: () => modify({ action: "accept", content: { username: "ci-bot" } } as never),
    });
    engine.register({
      event: "WorktreeCreate" as never,
      handler: () => modify({ worktreePath: "/tmp/worktrees/feature-auth" } as never),
    });
    const hooks = toAgentSdkHooks(engine);
    const call = (input: HookInput) =>
      (hooks[input.hook_event_name]![0]!.hooks[0] as HookCallback)(input, undefined, callOptions());

    expect(await call(cwdChanged)).toEqual({
      hookSpecificOutput: {
        hookEventName: "CwdChanged",
        watchPaths: ["/Users/me/my-project/src/.envrc"],
      },
    });
    expect(await call(fileChanged)).toEqual({});
    expect(seen).toEqual([
      expect.objectContaining({
        sessionId: "abc123",
        oldCwd: "/Users/me/my-project",
        newCwd: "/Users/me/my-project/src",
      }),
      expect.objectContaining({
        filePath: "/Users/me/my-project/.envrc",
        fileName: ".envrc",
        event: "change",
      }),
    ]);
    expect(await call(configChange)).toEqual({
      decision: "block",
      reason: "settings are locked during this session",
    });
    expect(await call(elicitation)).toEqual({
      hookSpecificOutput: {
        hookEventName: "Elicitation",
        action: "accept",
        content: { username: "ci-bot" },
      },
    });
    expect(await call(worktreeCreate)).toEqual({
      hookSpecificOutput: {
        hookEventName: "WorktreeCreate",
        worktreePath: "/tmp/worktrees/feature-auth",
      },
    });
    // The blocking ones ask the SDK to block when the callback fails.
    expect(hooks.ConfigChange?.[0]?.onFailure).toBe("block");
    expect(hooks.CwdChanged?.[0]).not.toHaveProperty("onFailure");
  });

  it("a block of an elicitation declines it; input that does not fit names the SDK field", async () => {
    defineEvent(claudeCodeEvents.Elicitation);
    const engine = new HookEngine();
    engine.register({
      event: "Elicitation" as never,
      handler: () => block("no credentials by hook"),
    });
    const callback = toAgentSdkHooks(engine).Elicitation?.[0]?.hooks[0] as HookCallback;
    expect(await callback(elicitation, undefined, callOptions())).toEqual({
      hookSpecificOutput: { hookEventName: "Elicitation", action: "decline" },
    });
    const bad = fromSdkInput({ ...elicitation, mcp_server_name: 7 } as never);
    expect(bad?.success).toBe(false);
    expect(bad && !bad.success && bad.error.message).toMatch(/mcpServerName/);
  });
});
