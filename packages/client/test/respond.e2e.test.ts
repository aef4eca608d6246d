/**
 * `HookResponse.respond` from a page: `@a3s-lab/box` bundled for browsers, in headless
 * Chromium, served by the hook server itself (same origin), its hook answering over the native
 * WebSocket. The agent's `runTool` does not run the tool; the model reads the page's answer.
 */
import { fileURLToPath } from "node:url";
import { HookEngine, runTool } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";
import { launchChromium } from "../../../test-support/chromium.ts";

const TOKEN = "respond-page-token";
const engine = new HookEngine();
let server: HookServer;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  const { code } = await bundleForBrowser(
    {
      stdin: {
        contents: `import { A3sClient, HookResponse } from "@a3s-lab/box";
          export async function start(token) {
            const client = new A3sClient({ address: location.host, token });
            client.registerHook("PreToolUse", {
              matcher: { tool: "WebFetch" },
              handler: (event) => HookResponse.respond("from the page: " + event.args.url),
            });
            await client.ready();
            return client.clientId;
          }`,
        resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        loader: "js",
      },
    },
    { format: "iife", globalName: "box" },
  );
  server = await createHookServer({
    engine,
    token: TOKEN,
    port: 0,
    httpHandler: (req, res) => {
      const isScript = req.url === "/box.js";
      res.writeHead(200, { "content-type": isScript ? "text/javascript" : "text/html" });
      res.end(isScript ? code : '<!doctype html><script src="/box.js"></script>');
    },
  });
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await server?.close();
});

describe("HookResponse.respond from @a3s-lab/box in Chromium", () => {
  it("stands for the tool, which does not run", async () => {
    const page = await chromium.context.newPage();
    try {
      await page.goto(`http://${server.address}/`);
      const clientId = await page.evaluate(
        (token) =>
          (globalThis as unknown as { box: { start(t: string): Promise<string> } }).box.start(
            token,
          ),
        TOKEN,
      );
      expect(engine.list()).toMatchObject([{ event: "PreToolUse", source: `remote:${clientId}` }]);
      const execute = vi.fn(async () => ({ output: "fetched live" }));
      const result = await runTool(
        engine,
        { sessionId: "s1", tool: "WebFetch", args: { url: "https://example.com" } },
        execute,
      );
      expect(execute).not.toHaveBeenCalled();
      expect(result.output).toBe("from the page: https://example.com");
    } finally {
      await page.close();
    }
  });
});
