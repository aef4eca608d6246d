import { describe, expect, it } from "vitest";
import { claudeAgentSdkSession } from "./claude-agent-sdk.js";

describe("claude-agent-sdk example", () => {
  it("answers each step of the scripted session the way the SDK reads it", async () => {
    const lines: string[] = [];
    const steps = await claudeAgentSdkSession((line) => lines.push(line));
    const answers = Object.fromEntries(steps.map((s) => [s.summary, s.answer]));

    expect(answers["session starts"]).toEqual({});
    expect(answers["Bash rm -rf ./build"]).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "recursive force deletes are not allowed",
      },
    });
    expect(answers["Write /etc/app.conf"]).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        updatedInput: { file_path: "/tmp/sandbox/app.conf", content: "debug=false" },
      },
    });
    expect(answers["Read .env returned a key"]).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        updatedToolOutput: "OPENAI_API_KEY=sk-[redacted]",
        additionalContext: "A key was redacted.",
      },
    });
    expect(answers["Claude wants to stop"]).toEqual({
      decision: "block",
      reason: "Run the test suite before you finish.",
    });
    expect(answers["Claude wants to stop again"]).toEqual({});
    expect(lines).toHaveLength(steps.length);
  });
});
