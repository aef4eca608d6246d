import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PermissionQuestion } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DemoAgent, setupDemoAgent } from "./demo-agent-setup.js";
import type { Model } from "./model.js";
import { nodeHookSources } from "./node-hook-sources.js";

let dir: string;
let demo: DemoAgent | undefined;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "cc-answers-")));
  await mkdir(path.join(dir, "home"));
});
afterEach(async () => {
  demo?.close();
  demo = undefined;
  await rm(dir, { recursive: true, force: true });
});

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** A model that asks for two Bash calls in its first step, then answers. */
function twoCalls(first: string, second: string): Model & { steps: number } {
  return {
    config: { name: "two-calls" },
    steps: 0,
    async generate() {
      this.steps++;
      if (this.steps === 1) {
        return {
          text: "",
          toolCalls: [
            { id: "call-1", name: "Bash", args: { command: first } },
            { id: "call-2", name: "Bash", args: { command: second } },
          ],
          usage,
        };
      }
      return { text: "done", toolCalls: [], usage };
    },
  };
}

/** The demo agent with one settings file holding one PreToolUse command hook on Bash. */
async function withPreToolUseHook(
  command: string,
  model: Model,
  defaultAnswer: "allow" | ((q: PermissionQuestion) => "allow" | "deny") = "allow",
) {
  const settings = path.join(dir, "settings.json");
  await writeFile(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    }),
  );
  demo = await setupDemoAgent({
    workdir: dir,
    home: path.join(dir, "home"),
    demoHooks: false,
    model,
    settingsFiles: [settings],
    permission: { defaultAnswer },
    hookSources: nodeHookSources(),
  });
  return demo.agent;
}

const ran = (name: string) =>
  readFile(path.join(dir, name), "utf8").then(
    () => true,
    () => false,
  );

describe("Claude Code answers in the demo agent (real settings file, real bash hook)", () => {
  // Claude Code's hooks reference: `continue: false` stops Claude after the hooks run, over any
  // decision; `stopReason` is shown to the user, not to Claude.
  it("continue: false ends the whole turn: no tool of the turn runs, the model never sees stopReason", async () => {
    const model = twoCalls("touch one", "touch two");
    const agent = await withPreToolUseHook(
      `printf '%s' '{"continue": false, "stopReason": "deploy freeze", "decision": "block", "reason": "model reason"}'`,
      model,
    );
    const session = await agent.createSession({ workdir: dir });
    const reply = await agent.respond(session, "touch two files");
    expect(reply.stopped).toEqual({ reason: "deploy freeze" });
    expect(await ran("one")).toBe(false);
    expect(await ran("two")).toBe(false);
    expect(model.steps).toBe(1);
    const seenByModel = JSON.stringify(session.messages);
    expect(seenByModel).not.toContain("deploy freeze");
    expect(seenByModel).not.toContain("model reason");
  });

  // Claude Code's hooks reference: for "ask", permissionDecisionReason is shown to the user.
  it("a PreToolUse ask with a reason puts the reason in the permission question", async () => {
    const questions: string[] = [];
    const agent = await withPreToolUseHook(
      `printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "this writes to the shared disk"}}'`,
      twoCalls("touch one", "touch two"),
      (q) => {
        questions.push(q.reason);
        return "deny";
      },
    );
    const session = await agent.createSession({ workdir: dir });
    await agent.respond(session, "touch two files");
    expect(questions).toEqual(["this writes to the shared disk", "this writes to the shared disk"]);
    expect(await ran("one")).toBe(false);
  });
});
