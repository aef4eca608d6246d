import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));

describe("@a3s-lab/hooks-browser in a browser bundle", () => {
  it("bundles for platform browser: no node: import, no process or Buffer", async () => {
    const { code, inputs, used, gzipped } = await bundleForBrowser({ entry });
    expect(inputs.filter((i) => i.startsWith("node:") || i.includes("/ws/"))).toEqual([]);
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    // Tree-shaken to what the transport needs: core's wire schemas, not the engine.
    expect(used.some((i) => i.endsWith("hook-engine.ts"))).toBe(false);
    expect(used.some((i) => i.endsWith("wire.ts"))).toBe(true);
    expect(gzipped).toBeLessThan(20 * 1024);
  });
});
