import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentProcess } from "../test/agent-process.js";
import { securityPolicy } from "./security-policy.js";

let agent: AgentProcess;
beforeAll(async () => {
  agent = await AgentProcess.start();
  securityPolicy(agent.client);
  await agent.client.ready();
});
afterAll(() => agent?.stop());

describe("seed 000's security policy hook", () => {
  it("blocks each dangerous pattern, with a reason naming it", async () => {
    const session = await agent.client.createSession();
    for (const [command, pattern] of [
      ["rm -rf /", "/rm\\s+-rf\\s+\\//"],
      ["mkfs.ext4 /dev/sda1", "/mkfs\\./"],
      ["dd if=/dev/zero of=/dev/sda", "/dd\\s+if=.*of=\\/dev/"],
      ["cat junk > /dev/sda", "/>\\s*\\/dev\\/sd/"],
    ] as const) {
      const result = await agent.client.executeTool(session, "Bash", { command });
      expect(result).toMatchObject({
        blocked: true,
        reason: `Blocked dangerous command matching ${pattern}`,
      });
    }
    expect(await agent.ran()).toEqual([]);
  });

  it("lets everything else run", async () => {
    const session = await agent.client.createSession();
    const result = await agent.client.executeTool(session, "Bash", { command: "rm -rf ./build" });
    expect(result).toMatchObject({ success: true, output: "Bash ok" });
    expect(await agent.ran()).toEqual(["rm -rf ./build"]);
  });
});
