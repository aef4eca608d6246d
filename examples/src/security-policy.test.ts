import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { AuditEventOf } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAgent } from "../test/demo-agent.js";
import { securityPolicy } from "./security-policy.js";

let agent: DemoAgent;
let hookId: string;
// What the example's own hook decided, as its client reports it: the demo agent has a
// dangerous-command hook of its own that runs first, and the merged decision names only one.
const blocked: AuditEventOf<"blocked">[] = [];

beforeAll(async () => {
  // `allow`: the commands that get past the hooks really run, so a miss would show.
  agent = await DemoAgent.start({ permission: "allow" });
  hookId = securityPolicy(agent.client).id;
  agent.client.setHookAuditLevel("info");
  agent.client.on("audit", (record) => {
    if (record.type === "blocked") blocked.push(record);
  });
  await agent.client.ready();
});
afterAll(() => agent?.stop());

/** The PreToolUse the demo fired for a Bash command, and whether the command then ran. */
async function bashRun(command: string) {
  const events = await agent.events();
  const pre = events.find(
    (r) => r.event.eventType === "PreToolUse" && r.event.args.command === command,
  );
  const toolUseId = pre?.event.eventType === "PreToolUse" ? pre.event.toolUseId : undefined;
  if (toolUseId === undefined) throw new Error(`the demo fired no PreToolUse for ${command}`);
  const ran = events.some(
    (r) =>
      (r.event.eventType === "PostToolUse" || r.event.eventType === "PostToolUseFailure") &&
      r.event.toolUseId === toolUseId,
  );
  return { pre, ran };
}

describe("the A3S Box hooks design's security policy hook, against the demo agent", () => {
  it("blocks rm -rf / and the design's other dangerous commands before Bash runs them", async () => {
    const session = await agent.client.createSession();
    for (const [command, pattern] of [
      ["rm -rf /", "/rm\\s+-rf\\s+\\//"],
      ["mkfs.ext4 /dev/sda1", "/mkfs\\./"],
      ["dd if=/dev/zero of=/dev/sda", "/dd\\s+if=.*of=\\/dev/"],
      ["cat junk > /dev/sda", "/>\\s*\\/dev\\/sd/"],
    ] as const) {
      const result = await agent.client.executeTool(session, "Bash", { command });
      expect(result, command).toMatchObject({ success: false, blocked: true });
      const { pre, ran } = await bashRun(command);
      expect(pre?.result.action, command).toBe("block");
      // A remote hook is listed under its name, or its hook id: never under its client's id.
      expect(pre?.result.hooks, command).toContain(hookId);
      expect(pre?.result.hooks.join(" "), command).not.toContain(agent.client.clientId);
      expect(ran, command).toBe(false);
      // The example's hook answered that very firing with its own reason.
      expect(blocked.find((b) => b.eventId === pre?.event.eventId)).toMatchObject({
        hookId,
        reason: `Blocked dangerous command matching ${pattern}`,
      });
    }
  });

  it("is what stops an rm -rf of an absolute path the demo's own policy lets through", async () => {
    const session = await agent.client.createSession();
    const victim = path.join(agent.workdir, "victim");
    await mkdir(victim);
    const command = `rm -rf ${victim}`;
    const result = await agent.client.executeTool(session, "Bash", { command });
    expect(result).toMatchObject({
      blocked: true,
      reason: "Blocked by a hook: Blocked dangerous command matching /rm\\s+-rf\\s+\\//",
    });
    expect((await bashRun(command)).ran).toBe(false);
    expect(existsSync(victim)).toBe(true);
  });

  it("lets everything else run", async () => {
    const session = await agent.client.createSession();
    await mkdir(path.join(agent.workdir, "build"));
    const result = await agent.client.executeTool(session, "Bash", { command: "rm -rf ./build" });
    expect(result).toMatchObject({ success: true, exitCode: 0 });
    expect((await bashRun("rm -rf ./build")).ran).toBe(true);
    expect(existsSync(path.join(agent.workdir, "build"))).toBe(false);
  });
});
