/**
 * The size budget of a page that imports `A3sClient` from `@a3s-lab/box`: bundled the way a
 * web app's bundler would (platform browser, the `browser` export condition), minified,
 * gzipped. zod, core's wire schemas and the client are all in it (29.8 KB measured).
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const PAGE_GZIP_BUDGET = 40 * 1024;

describe("@a3s-lab/box in a web page", () => {
  it(`bundles for browsers under ${PAGE_GZIP_BUDGET / 1024} KB gzipped, without any Node module`, async () => {
    const result = await build({
      stdin: {
        contents: `import { A3sClient } from "@a3s-lab/box";
          const client = new A3sClient({ token: "t" });
          client.registerHook("PermissionRequest", () => ({ action: "continue", permission: "allow" }));`,
        resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        loader: "ts",
      },
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      // The workspace's source condition stands in for the published dist/browser.js.
      conditions: ["@a3s-lab/source"],
      minify: true,
      target: "es2022",
      logLevel: "silent",
      metafile: true,
    });
    const code = result.outputFiles[0]!.text;
    const gzipped = gzipSync(code).length;
    const used = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([path]) => path);
    expect(used.filter((p) => /(^|\/)node\/src\/|grpc|(^|\/)ws\//.test(p))).toEqual([]);
    expect(used.some((p) => p.endsWith("browser/src/websocket-transport.ts"))).toBe(true);
    expect(code).not.toMatch(/\bprocess\.env|\brequire\(/);
    expect(gzipped).toBeLessThan(PAGE_GZIP_BUDGET);
  });
});
