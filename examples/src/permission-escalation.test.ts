import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAgent } from "../test/demo-agent.js";
import { type ConfirmationDialog, permissionEscalation } from "./permission-escalation.js";

let agent: DemoAgent;
const shown: ConfirmationDialog[] = [];
// The stubbed dialog: the test decides what the person answers.
let answer = false;

beforeAll(async () => {
  // The hook only ever objects: when the person says yes it leaves the decision to the agent,
  // whose answer to open permission questions is `allow` here (the demo's default is deny).
  agent = await DemoAgent.start({ permission: "allow" });
  permissionEscalation(agent.client, async (dialog) => {
    shown.push(dialog);
    return answer;
  });
  await agent.client.ready();
});
afterAll(() => agent?.stop());

/** The demo's permission events for one tool call, paired by the `toolUseId` they share. */
async function permissionTrail(tool: string, key: string, value: string) {
  const request = (await agent.fired("PermissionRequest")).find(
    (r) => r.event.tool === tool && r.event.args[key] === value,
  )?.event;
  if (request?.toolUseId === undefined) return { request, outcome: undefined };
  const outcome = (await agent.events()).find(
    (r) =>
      (r.event.eventType === "PermissionGranted" || r.event.eventType === "PermissionDenied") &&
      r.event.toolUseId === request?.toolUseId,
  )?.event;
  return { request, outcome: outcome?.eventType };
}

describe("the A3S Box hooks design's permission escalation hook, against the demo agent", () => {
  it("asks before Bash runs: no blocks it, yes lets it run", async () => {
    const session = await agent.client.createSession();
    answer = false;
    const denied = await agent.client.executeTool(session, "Bash", { command: "touch denied" });
    expect(denied).toMatchObject({ blocked: true, reason: expect.stringContaining("User denied") });
    const no = await permissionTrail("Bash", "command", "touch denied");
    expect(no.outcome).toBe("PermissionDenied");
    // The person saw what the agent asked for, arguments and all (the demo adds a timeout).
    expect(shown.at(-1)).toEqual({
      title: "Allow Bash?",
      message: `The agent wants to execute: ${JSON.stringify(no.request?.args)}`,
      timeout: 30000,
    });
    expect(no.request?.args).toMatchObject({ command: "touch denied" });
    expect(existsSync(path.join(agent.workdir, "denied"))).toBe(false);

    answer = true;
    const allowed = await agent.client.executeTool(session, "Bash", { command: "touch allowed" });
    expect(allowed).toMatchObject({ success: true, exitCode: 0 });
    expect((await permissionTrail("Bash", "command", "touch allowed")).outcome).toBe(
      "PermissionGranted",
    );
    expect(existsSync(path.join(agent.workdir, "allowed"))).toBe(true);
  });

  it("outranks the agent's own rule that allows file writes", async () => {
    const session = await agent.client.createSession();
    answer = false;
    const before = shown.length;
    const write = await agent.client.executeTool(session, "Write", {
      file_path: "notes.md",
      content: "hello",
    });
    expect(write).toMatchObject({ blocked: true });
    expect(shown.slice(before).map((d) => d.title)).toEqual(["Allow Write?"]);
    expect((await permissionTrail("Write", "file_path", "notes.md")).outcome).toBe(
      "PermissionDenied",
    );
    expect(existsSync(path.join(agent.workdir, "notes.md"))).toBe(false);
  });

  it("does not ask for tools that are not sensitive", async () => {
    // The demo asks permission for read-only tools only when a PreToolUse hook says "ask";
    // this one does, so the example's hook is consulted about a Read and must stay quiet.
    const ask = agent.client.registerHook("PreToolUse", {
      matcher: { tool: "Read" },
      handler: () => ({ action: "continue", permission: "ask" }),
    });
    await agent.client.ready();
    try {
      await writeFile(path.join(agent.workdir, "plan.md"), "step 1\n");
      const session = await agent.client.createSession();
      answer = false;
      const before = shown.length;
      const read = await agent.client.executeTool(session, "Read", { file_path: "plan.md" });
      expect(read).toMatchObject({ success: true, output: expect.stringContaining("step 1") });
      expect((await permissionTrail("Read", "file_path", "plan.md")).outcome).toBe(
        "PermissionGranted",
      );
      expect(shown.length).toBe(before);
    } finally {
      await agent.client.unregisterHook(ask);
    }
  });
});
