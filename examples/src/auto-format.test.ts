import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAgent } from "../test/demo-agent.js";
import { autoFormat } from "./auto-format.js";

let agent: DemoAgent;
beforeAll(async () => {
  // `allow`: the demo asks before Bash runs; here nobody is there to answer, so the default
  // answer lets the formatter commands run, as they would for a user who allowed them.
  agent = await DemoAgent.start({ permission: "allow" });
  autoFormat(agent.client);
  await agent.client.ready();
});
afterAll(() => agent?.stop());

/**
 * The Bash commands the demo was asked to run in a session, each with whether it ran (the
 * formatters are not installed here, so a run that fails still counts: the shell ran it).
 */
async function bashCommands(sessionId: string) {
  const events = await agent.events();
  return events.flatMap(({ event }) => {
    if (event.eventType !== "PreToolUse" || event.tool !== "Bash") return [];
    if (event.sessionId !== sessionId) return [];
    if (event.toolUseId === undefined) throw new Error("a PreToolUse without a toolUseId");
    const ran = events.some(
      (r) =>
        (r.event.eventType === "PostToolUse" || r.event.eventType === "PostToolUseFailure") &&
        r.event.toolUseId === event.toolUseId,
    );
    return [{ command: event.args.command, timeout: event.args.timeout, ran }];
  });
}

describe("the A3S Box hooks design's auto-format hook, against the demo agent", () => {
  it("runs the file's formatter in the same session through executeTool after each Write", async () => {
    const session = await agent.client.createSession();
    for (const file of ["src/main.rs", "app.py", "web/index.ts", "notes.md"]) {
      expect(
        await agent.client.executeTool(session, "Write", { file_path: file, content: "x\n" }),
      ).toMatchObject({ success: true });
      expect(readFileSync(path.join(agent.workdir, file), "utf8")).toBe("x\n");
    }
    expect(await bashCommands(session)).toEqual([
      { command: "rustfmt 'src/main.rs'", timeout: 10000, ran: true },
      { command: "black 'app.py'", timeout: 10000, ran: true },
      { command: "prettier --write 'web/index.ts'", timeout: 10000, ran: true },
    ]);
  });

  it("quotes the path, so a file name cannot run a command", async () => {
    const session = await agent.client.createSession();
    const file = "it's $(touch pwned).go";
    await agent.client.executeTool(session, "Write", { file_path: file, content: "" });
    expect(existsSync(path.join(agent.workdir, file))).toBe(true);
    expect(await bashCommands(session)).toEqual([
      { command: `gofmt -w 'it'\\''s $(touch pwned).go'`, timeout: 10000, ran: true },
    ]);
    // The shell ran the line; had the name been spliced in unquoted, `touch` would have run.
    expect(existsSync(path.join(agent.workdir, "pwned"))).toBe(false);
  });
});
