/**
 * The audit helpers in a page's bundle: present when the page uses them, gone when it does not
 * (the package is `sideEffects: false`, and nothing at module level keeps them alive).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";

const page = (contents: string) =>
  bundleForBrowser({
    stdin: { contents, resolveDir: fileURLToPath(new URL("..", import.meta.url)), loader: "ts" },
  });
const isAudit = (input: string) => /(^|\/)src\/audit\/audit-(trail|format)\.ts$/.test(input);

describe("the audit helpers in a browser bundle", () => {
  it("are tree-shaken away from a page that only uses the transport", async () => {
    const { used } = await page(`import { createWebSocketTransport } from "./src/index.ts";
      globalThis.t = createWebSocketTransport;`);
    expect(used.some((i) => i.endsWith("websocket-transport.ts"))).toBe(true);
    expect(used.filter(isAudit)).toEqual([]);
  });

  it("bundle for browsers on their own: no Node module, no engine, a few KB", async () => {
    const { code, inputs, used, gzipped } = await page(`
      import { AuditTrail, formatAuditRecord, logAudit } from "./src/index.ts";
      globalThis.audit = { AuditTrail, formatAuditRecord, logAudit };`);
    expect(used.filter(isAudit)).toHaveLength(2);
    expect(inputs.filter((i) => i.startsWith("node:"))).toEqual([]);
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    // A client or an engine is the page's own import; the helpers only listen to one.
    expect(used.some((i) => i.endsWith("hook-engine.ts"))).toBe(false);
    expect(used.some((i) => /zod/.test(i))).toBe(false);
    expect(gzipped).toBeLessThan(4 * 1024); // 2.5 KB measured, with core's HookError and onAudit
  });
});
