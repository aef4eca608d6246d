import { claudeCodeEvents, defineEvent } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { parseHooksBlock } from "./parse-hooks-block.js";

const ctx = { file: "settings.json", scope: "user" as const, trusted: true, basePath: ["hooks"] };
const hooks = [{ hooks: [{ type: "command", command: "echo idle" }] }];

describe("parseHooksBlock: event names", () => {
  it("says how to opt in to a Claude Code event that has a ready definition", () => {
    const parsed = parseHooksBlock({ TaskCompleted: hooks }, ctx);
    expect(parsed.hooks).toHaveLength(0);
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        severity: "warning",
        path: "hooks.TaskCompleted",
        message:
          'unknown event name "TaskCompleted": Claude Code\'s TaskCompleted has a ready definition this host has not opted in to (the host adds it with defineEvent(claudeCodeEvents.TaskCompleted) from @a3s-lab/hooks-core); its hooks are ignored',
      }),
    ]);
  });

  it("keeps the nearest-name hint for a name nobody defines", () => {
    const parsed = parseHooksBlock({ PreToolUze: hooks, Whatever: hooks }, ctx);
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'unknown event name "PreToolUze" (did you mean "PreToolUse"?); its hooks are ignored',
      'unknown event name "Whatever"; its hooks are ignored',
    ]);
  });

  it("reads the hooks of an event once the host defined it", () => {
    defineEvent(claudeCodeEvents.TeammateIdle);
    const parsed = parseHooksBlock({ TeammateIdle: hooks, teammate_idle: hooks }, ctx);
    expect(parsed.problems).toEqual([]);
    expect(parsed.hooks.map((h) => h.event)).toEqual(["TeammateIdle", "TeammateIdle"]);
  });
});
