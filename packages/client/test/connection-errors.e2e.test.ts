/**
 * A page whose agent is not running: `@a3s-lab/box` bundled for browsers, in headless
 * Chromium, pointed at a real port on 127.0.0.1 where nothing listens. The native WebSocket
 * says nothing about why it failed; the page must still hear at once, in plain words.
 */
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";
import { launchChromium } from "../../../test-support/chromium.ts";

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let script: string;

beforeAll(async () => {
  const { code } = await bundleForBrowser(
    {
      stdin: {
        contents: `import { A3sClient } from "@a3s-lab/box";
          export async function tryConnect(address) {
            // Far beyond the test's own timeout: only the refusal can answer in time.
            const client = new A3sClient({ address, token: "t", connectTimeoutMs: 600000 });
            client.registerHook("Stop", () => undefined);
            try {
              await client.ready();
              return { connected: true };
            } catch (error) {
              return { code: error.code, message: error.message, cause: error.cause?.message,
                refused: error.details.connectionRefused, state: client.state };
            } finally {
              await client.close();
            }
          }`,
        resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        loader: "js",
      },
    },
    { format: "iife", globalName: "box" },
  );
  script = code;
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
});

/** A port that was just free: bound, then released, so connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("@a3s-lab/box in Chromium, with no agent at the address", () => {
  it("rejects ready() at once with UNAVAILABLE, naming the address and what to do", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    const page = await chromium.context.newPage();
    try {
      await page.addScriptTag({ content: script });
      const result = await page.evaluate(
        (at) =>
          (
            globalThis as unknown as {
              box: { tryConnect(address: string): Promise<Record<string, unknown>> };
            }
          ).box.tryConnect(at),
        address,
      );
      expect(result).toEqual({
        code: "UNAVAILABLE",
        message: `no agent is listening at ${address} (connection refused): start the agent, or give the address it listens on (A3S_ADDRESS or the address option)`,
        cause: `could not connect to ws://${address}/ (refused or unreachable; the browser gives no reason)`,
        refused: true,
        state: "reconnecting",
      });
    } finally {
      await page.close();
    }
  });
});
