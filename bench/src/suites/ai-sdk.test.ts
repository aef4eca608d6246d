import { describe, expect, it } from "vitest";
import { aiSdkSuite } from "./ai-sdk.js";
import { tinyProfile } from "./tiny-profile.js";

describe("AI SDK adapter suite (tiny run: the rows exist and hold numbers)", () => {
  it("a tool call through withHooks, with no tool hook and with one for another tool", async () => {
    const { rows, pending } = await aiSdkSuite.run({ profile: tinyProfile, log: () => undefined });
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([
      "adapter.ai-sdk.tool-call",
      "adapter.ai-sdk.tool-call.unmatched",
    ]);
    for (const row of rows) {
      expect(Number.isFinite(row.ours.median), row.id).toBe(true);
      expect(Number.isFinite(row.baseline?.median), row.id).toBe(true);
      expect(["unjudged", "info"], row.id).toContain(row.verdict);
    }
  });
});
