import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ToolCall } from "@a3s-lab/hooks-core";
import { modify } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { setupDemoAgent } from "./demo-agent-setup.js";
import type { Model } from "./model.js";

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** A model that asks for one Bash call, then answers. */
function oneBashCall(): Model {
  let step = 0;
  return {
    config: { name: "retry-test" },
    async generate() {
      step++;
      if (step === 1) {
        const call: ToolCall = { id: "toolu_1", name: "Bash", args: { command: "true" } };
        return { text: "", toolCalls: [call], usage };
      }
      return { text: "done", toolCalls: [], usage };
    },
  };
}

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// Claude Code's hooks reference, "PermissionDenied decision control": with `retry: true`
// "Claude Code adds a message to the conversation telling the model it may retry the tool call.
// The denial itself is not reversed."
describe("a PermissionDenied hook's retry", () => {
  it.each([
    [true, true],
    [false, false],
  ])("retry %s: the call stays denied; the model is told it may retry: %s", async (retry, told) => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "denied-retry-")));
    const demo = await setupDemoAgent({
      workdir: dir,
      home: dir,
      demoHooks: false,
      model: oneBashCall(),
      settingsFiles: [],
      permission: { defaultAnswer: "deny" },
    });
    try {
      demo.engine.register({ event: "PermissionDenied", handler: () => modify({ retry }) });
      const session = await demo.agent.createSession({ workdir: dir });
      await demo.agent.respond(session, "run it");
      const result = session.messages.find((m) => m.role === "tool");
      expect(result?.content).toMatch(/^Error: permission denied for Bash/);
      expect(result?.content.includes("You may retry this tool call.")).toBe(told);
    } finally {
      demo.close();
    }
  });
});
