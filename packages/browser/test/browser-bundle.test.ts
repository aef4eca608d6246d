import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));

describe("@a3s-lab/hooks-browser in a browser bundle", () => {
  it("bundles for platform browser: no node: import, no process or Buffer", async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      conditions: ["@a3s-lab/source"],
      minify: true,
      target: "es2022",
      logLevel: "silent",
      metafile: true,
    });
    const code = result.outputFiles[0]!.text;
    const inputs = Object.keys(result.metafile.inputs);
    const output = Object.values(result.metafile.outputs)[0]!;
    const used = Object.entries(output.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([path]) => path);
    expect(inputs.filter((i) => i.startsWith("node:") || i.includes("/ws/"))).toEqual([]);
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    // Tree-shaken to what the transport needs: core's wire schemas, not the engine.
    expect(used.some((i) => i.endsWith("hook-engine.ts"))).toBe(false);
    expect(used.some((i) => i.endsWith("wire.ts"))).toBe(true);
    expect(gzipSync(code).length).toBeLessThan(20 * 1024);
  });
});
