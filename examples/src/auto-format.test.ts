import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentProcess } from "../test/agent-process.js";
import { autoFormat } from "./auto-format.js";

let agent: AgentProcess;
beforeAll(async () => {
  agent = await AgentProcess.start();
  autoFormat(agent.client);
  await agent.client.ready();
});
afterAll(() => agent?.stop());

describe("seed 000's auto-format hook", () => {
  it("runs the file's formatter through executeTool after each write", async () => {
    const session = await agent.client.createSession();
    for (const file of ["src/main.rs", "app.py", "web/index.ts", "notes.md"]) {
      expect(
        await agent.client.executeTool(session, "Write", { file_path: file, content: "x" }),
      ).toMatchObject({
        success: true,
      });
    }
    expect(await agent.ran()).toEqual([
      "rustfmt 'src/main.rs'",
      "black 'app.py'",
      "prettier --write 'web/index.ts'",
    ]);
  });

  it("quotes the path so a file name cannot run a command", async () => {
    const session = await agent.client.createSession();
    await agent.client.executeTool(session, "Write", {
      file_path: "it's $(whoami).go",
      content: "",
    });
    expect((await agent.ran()).at(-1)).toBe(`gofmt -w 'it'\\''s $(whoami).go'`);
  });
});
