import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentProcess } from "../test/agent-process.js";
import { type ConfirmationDialog, permissionEscalation } from "./permission-escalation.js";

let agent: AgentProcess;
const shown: ConfirmationDialog[] = [];
// The stubbed dialog: the test decides what the person answers.
let answer = false;

beforeAll(async () => {
  agent = await AgentProcess.start();
  permissionEscalation(agent.client, async (dialog) => {
    shown.push(dialog);
    return answer;
  });
  await agent.client.ready();
});
afterAll(() => agent?.stop());

describe("seed 000's permission escalation hook", () => {
  it("asks before Bash runs, and blocks when the person says no", async () => {
    const session = await agent.client.createSession();
    answer = false;
    const denied = await agent.client.executeTool(session, "Bash", { command: "make deploy" });
    expect(denied).toMatchObject({ blocked: true, reason: "User denied permission" });
    expect(shown.at(-1)).toEqual({
      title: "Allow Bash?",
      message: 'The agent wants to execute: {"command":"make deploy"}',
      timeout: 30000,
    });
    expect(await agent.ran()).toEqual([]);

    answer = true;
    const allowed = await agent.client.executeTool(session, "Bash", { command: "make deploy" });
    expect(allowed).toMatchObject({ success: true });
    expect(await agent.ran()).toEqual(["make deploy"]);
  });

  it("does not ask for tools that are not sensitive", async () => {
    const session = await agent.client.createSession();
    const before = shown.length;
    await agent.client.executeTool(session, "Read", { file_path: "README.md" });
    expect(shown.length).toBe(before);
  });
});
