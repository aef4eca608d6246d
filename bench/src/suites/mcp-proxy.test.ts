import { describe, expect, it } from "vitest";
import { mcpProxySuite } from "./mcp-proxy.js";
import { tinyProfile } from "./tiny-profile.js";

describe("mcp-proxy suite (a tiny run: the row exists and holds numbers)", () => {
  it("times a call through the proxy process against a direct call to the same server", async () => {
    const { rows, pending } = await mcpProxySuite.run({ profile: tinyProfile, log: () => {} });
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(["adapter.mcp-proxy.tool-call"]);
    const [row] = rows;
    expect(row!.ours.n).toBe(tinyProfile.roundTrips);
    expect(row!.baseline!.median).toBeGreaterThan(0);
    expect(row!.verdict).toBe("unjudged");
  });
});
