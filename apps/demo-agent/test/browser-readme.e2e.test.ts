/**
 * `@a3s-lab/hooks-browser`'s README shows a page that registers a hook in ten lines. This runs
 * that page, as written, in headless Chromium against a real hook server: its script bundled
 * the way a web app's bundler would (the `browser` export condition of `@a3s-lab/box`), its
 * `prompt` and `confirm` answered as a person would.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test-support/chromium.ts";

const README = new URL("../../../packages/browser/README.md", import.meta.url);
const TOKEN = "readme-token";

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let server: HookServer;
let page: Page;
const engine = new HookEngine();
let confirmAnswer = true;

/** The README's page, its module script bundled for browsers. */
async function readmePage(): Promise<{ html: string; js: string }> {
  const readme = readFileSync(fileURLToPath(README), "utf8");
  const block = /```html\n([\s\S]*?)```/.exec(readme)?.[1];
  const script = /<script type="module">([\s\S]*?)<\/script>/.exec(block ?? "")?.[1];
  if (!block || !script) throw new Error("the README has no page with a module script");
  const bundled = await build({
    stdin: {
      contents: script,
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    conditions: ["@a3s-lab/source"],
    logLevel: "silent",
  });
  const html = block
    .replace(script, "")
    .replace('<script type="module"></script>', '<script type="module" src="/page.js"></script>');
  return { html, js: bundled.outputFiles[0]!.text };
}

beforeAll(async () => {
  const { html, js } = await readmePage();
  server = await createHookServer({
    engine,
    token: TOKEN,
    port: 0,
    httpHandler: (req, res) => {
      const isScript = req.url === "/page.js";
      res.writeHead(200, { "content-type": isScript ? "text/javascript" : "text/html" });
      res.end(isScript ? js : html);
    },
  });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  page.on("dialog", (dialog) => {
    if (dialog.type() === "prompt") void dialog.accept(TOKEN);
    else if (confirmAnswer) void dialog.accept();
    else void dialog.dismiss();
  });
});

afterAll(async () => {
  await chromium?.close();
  await server?.close();
});

const request = () =>
  createEvent("PermissionRequest", { sessionId: "s", tool: "Bash", args: { command: "ls" } });

describe("the hooks-browser README's page", () => {
  it("registers its PermissionRequest hook, and the person's answer decides", async () => {
    const registered = new Promise((resolve) => engine.on("registered", resolve));
    await page.goto(`http://${server.address}/`);
    await registered;
    expect(engine.list()).toMatchObject([
      { event: "PermissionRequest", failBehavior: "block", timeout: 120_000 },
    ]);
    confirmAnswer = true;
    expect(await engine.fire(request())).toMatchObject({ action: "continue", permission: "allow" });
    confirmAnswer = false;
    expect(await engine.fire(request())).toMatchObject({
      action: "block",
      reason: "denied in the browser",
    });
  });
});
