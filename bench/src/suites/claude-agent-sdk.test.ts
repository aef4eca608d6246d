import { describe, expect, it } from "vitest";
import { claudeAgentSdkSuite } from "./claude-agent-sdk.js";
import { tinyProfile } from "./tiny-profile.js";

describe("Claude Agent SDK adapter suite (tiny run: the row exists and holds numbers)", () => {
  it("a PreToolUse callback through the bridge, no hook for the event, against a bare async one", async () => {
    const { rows, pending } = await claudeAgentSdkSuite.run({
      profile: tinyProfile,
      log: () => undefined,
    });
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(["adapter.claude-agent-sdk.pre-tool-use"]);
    const [row] = rows;
    expect(Number.isFinite(row!.ours.median)).toBe(true);
    expect(Number.isFinite(row!.baseline?.median)).toBe(true);
    expect(["unjudged", "info"]).toContain(row!.verdict);
  });
});
