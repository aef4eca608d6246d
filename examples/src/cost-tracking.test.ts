import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentProcess } from "../test/agent-process.js";
import { costTracking } from "./cost-tracking.js";

let agent: AgentProcess;
const warnings: string[] = [];
let usage: { totalTokens: number; totalCost: number };

beforeAll(async () => {
  agent = await AgentProcess.start();
  // $200 per 1,000 tokens: each 30-token generation costs $6, so the second passes $10.
  ({ usage } = costTracking(agent.client, {
    pricePer1kTokens: { "example-model": 200 },
    warn: (message) => warnings.push(message),
  }));
  await agent.client.ready();
});
afterAll(() => agent?.stop());

describe("seed 000's cost tracking hook", () => {
  it("adds up tokens and cost after each generation, and warns past $10", async () => {
    const session = await agent.client.createSession();
    const first = await agent.client.generate(session, "hello");
    expect(first.text).toBe("You said: hello");
    expect(usage).toEqual({ totalTokens: 30, totalCost: 6 });
    expect(warnings).toEqual([]);
    await agent.client.generate(session, "again");
    expect(usage).toEqual({ totalTokens: 60, totalCost: 12 });
    expect(warnings).toEqual(["Session cost exceeded $10: $12.00"]);
  });
});
