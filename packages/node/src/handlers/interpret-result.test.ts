import { claudeCodeEvents, createEvent, defineEvent, HookError } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { interpretOutput, type OutputReading } from "./interpret-result.js";

defineEvent(claudeCodeEvents.WorktreeCreate);

const reading = (event: OutputReading["event"]): OutputReading => ({
  event,
  truncated: false,
  bytes: 0,
  maxOutputBytes: 1024 * 1024,
  what: "stdout",
  plainText: "context",
});

// biome-ignore lint/suspicious/noExplicitAny: WorktreeCreate is typed by a host's augmentation only
const worktree = createEvent("WorktreeCreate" as any, { sessionId: "s", name: "feature" } as any);
const start = createEvent("SessionStart", { sessionId: "s", source: "startup" });

describe("interpretOutput: event answer fields", () => {
  it("a WorktreeCreate command hook answers the path alone on stdout, its last line", () => {
    expect(interpretOutput("creating…\n/repo/.worktrees/feature\n\n", reading(worktree))).toEqual({
      action: "continue",
      modified: { worktreePath: "/repo/.worktrees/feature" },
    });
  });

  it("a WorktreeCreate stdout cut at the cap is no path: the hook fails", () => {
    const cut = { ...reading(worktree), truncated: true, bytes: 2_000_000 };
    const error = interpretOutput("/repo/.worktrees/feat", cut);
    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).code).toBe("INVALID_OUTPUT");
  });

  it("plain stdout is not an answer field on an event without one", () => {
    expect(
      interpretOutput(
        "/some/path\n",
        reading(createEvent("Stop", { sessionId: "s", stopHookActive: false })),
      ),
    ).toEqual({
      action: "continue",
    });
  });

  it("reads SessionStart's hookSpecificOutput.watchPaths", () => {
    const json = JSON.stringify({
      hookSpecificOutput: { hookEventName: "SessionStart", watchPaths: ["/p/.env"] },
    });
    expect(interpretOutput(json, reading(start))).toEqual({
      action: "continue",
      modified: { watchPaths: ["/p/.env"] },
    });
  });

  it("a bad watchPaths fails the hook, naming the field", () => {
    const json = JSON.stringify({ hookSpecificOutput: { watchPaths: [".env"] } });
    const error = interpretOutput(json, reading(start));
    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).code).toBe("INVALID_OUTPUT");
    expect((error as HookError).message).toContain("hookSpecificOutput.watchPaths");
  });
});
