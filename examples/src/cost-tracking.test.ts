import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAgent } from "../test/demo-agent.js";
import { costTracking } from "./cost-tracking.js";

let agent: DemoAgent;
const warnings: string[] = [];
let usage: { totalTokens: number; totalCost: number };

beforeAll(async () => {
  agent = await DemoAgent.start();
  // $1 per 1,000 tokens of the demo's scripted model; the design's $10 threshold.
  ({ usage } = costTracking(agent.client, {
    pricePer1kTokens: { scripted: 1 },
    warn: (message) => warnings.push(message),
  }));
  await agent.client.ready();
});
afterAll(() => agent?.stop());

/** The token counts the demo reported in its GenerateEnd events, in order. */
async function reportedTokens(): Promise<number[]> {
  return (await agent.fired("GenerateEnd")).map((r) => r.event.response.usage.total_tokens);
}

describe("the A3S Box hooks design's cost tracking hook, against the demo agent", () => {
  it("adds up the tokens and cost of every GenerateEnd, and warns once past $10", async () => {
    const session = await agent.client.createSession();
    const first = await agent.client.generate(session, "hello");
    expect(first.text).toBe("Understood: hello");
    const [tokens] = await reportedTokens();
    expect(tokens).toBe(first.usage?.totalTokens);
    expect(usage).toEqual({ totalTokens: tokens, totalCost: tokens! / 1000 });
    expect(warnings).toEqual([]);

    // The scripted model bills about a token per 4 characters in and out: this answer costs
    // more than $10 on its own.
    const long = "lorem ipsum ".repeat(2500);
    const second = await agent.client.generate(session, `say: ${long}`);
    expect(second.text).toBe(long.trim());
    const all = await reportedTokens();
    expect(all).toHaveLength(2);
    const total = all[0]! + all[1]!;
    expect(usage.totalTokens).toBe(total);
    expect(usage.totalCost).toBeCloseTo(total / 1000, 9);
    expect(usage.totalCost).toBeGreaterThan(10);
    const dollars = all[0]! / 1000 + all[1]! / 1000;
    expect(warnings).toEqual([`Session cost exceeded $10: $${dollars.toFixed(2)}`]);
  });
});
