/**
 * The size budget of a page that imports `A3sClient` from `@a3s-lab/box`: bundled the way a
 * web app's bundler would (platform browser, the `browser` export condition), minified,
 * gzipped. zod, core's wire schemas and the client are all in it (29.8 KB measured).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";

const PAGE_GZIP_BUDGET = 40 * 1024;

describe("@a3s-lab/box in a web page", () => {
  it(`bundles for browsers under ${PAGE_GZIP_BUDGET / 1024} KB gzipped, without any Node module`, async () => {
    const { code, gzipped, used } = await bundleForBrowser({
      stdin: {
        contents: `import { A3sClient } from "@a3s-lab/box";
          const client = new A3sClient({ token: "t" });
          client.registerHook("PermissionRequest", () => ({ action: "continue", permission: "allow" }));`,
        resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        loader: "ts",
      },
    });
    expect(used.filter((p) => /(^|\/)node\/src\/|grpc|(^|\/)ws\//.test(p))).toEqual([]);
    expect(used.some((p) => p.endsWith("browser/src/websocket-transport.ts"))).toBe(true);
    expect(code).not.toMatch(/\bprocess\.env|\brequire\(/);
    expect(gzipped).toBeLessThan(PAGE_GZIP_BUDGET);
  });
});
