/**
 * A person approves MCP tool calls in a real browser page: the proxy runs as an MCP client
 * starts it (a child process on stdio, in front of `@modelcontextprotocol/server-filesystem`),
 * hosts the hook server with `--serve-hooks`, and lets one page origin in with
 * `--allow-origin`. The page (bundled from `approval-page/page.ts`, `@a3s-lab/box`'s browser
 * build) runs in Debian's headless Chromium through playwright-core; the test clicks its
 * buttons. Every wait is on page state or a process's output, never a sleep.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";
import { launchChromium } from "../../../test-support/chromium.ts";
import { FILESYSTEM_SERVER, type ProxyProcess, scratch, startProxy } from "./proxy-process.ts";

const TOKEN = "approval-page-token-for-this-test";
const PAGE_DIR = fileURLToPath(new URL("approval-page/", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");

/** Serves the page and its script on 127.0.0.1, and remembers every URL it was asked for. */
async function servePage(): Promise<{ server: Server; origin: string; requested: string[] }> {
  const html = readFileSync(join(PAGE_DIR, "index.html"), "utf8");
  const { code } = await bundleForBrowser({ entry: join(PAGE_DIR, "page.ts") });
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? "");
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/") res.writeHead(200, { "content-type": "text/html" }).end(html);
    else if (path === "/page.js")
      res.writeHead(200, { "content-type": "text/javascript" }).end(code);
    else if (path === "/favicon.ico") res.writeHead(204).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return { server, origin: `http://127.0.0.1:${port}`, requested };
}

describe("an approval page in Chromium decides the MCP proxy's tool calls", () => {
  let box: ReturnType<typeof scratch>;
  let files: string;
  let page: Awaited<ReturnType<typeof servePage>>;
  let proxy: ProxyProcess;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let tab: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    box = scratch();
    files = join(box.dir, "files");
    mkdirSync(files);
    mkdirSync(ARTIFACTS, { recursive: true });
    page = await servePage();
    [proxy, chromium] = await Promise.all([
      startProxy(
        [
          "--name",
          "fs",
          "--ask",
          "mcp__fs__write_file",
          "--serve-hooks",
          "0",
          "--allow-origin",
          page.origin,
        ],
        [FILESYSTEM_SERVER, files],
        box.dir,
        { A3S_TOKEN: TOKEN },
      ),
      launchChromium(),
    ]);
    tab = await chromium.context.newPage();
    tab.on("pageerror", (error) => errors.push(error.message));
    tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  }, 60_000);

  afterAll(async () => {
    await tab?.close();
    await chromium?.close();
    await proxy?.client.close();
    if (page) {
      page.server.closeAllConnections();
      await new Promise((done) => page.server.close(done));
    }
    box?.cleanup();
  });

  // A browser, two processes and a person's two clicks: generous, as a hang guard only.
  it("runs the call the person allows and refuses the one they deny", {
    timeout: 60_000,
  }, async () => {
    const [, hooks] = await proxy.waitForStderr(/hooks: listening on (\S+)/);
    const url = `${page.origin}/?hooks=${encodeURIComponent(hooks!)}`;
    await tab.goto(`${url}#token=${TOKEN}`);
    await tab.locator('body[data-hooks="registered"]').waitFor({ state: "attached" });
    // The token came in the fragment: gone from the address bar, never sent to a server.
    expect(tab.url()).toBe(url);
    expect(page.requested.join("\n")).not.toContain(TOKEN);

    // Two calls wait at once, each on its own card; the person allows one and denies the other.
    const allowedPath = join(files, "allowed.txt");
    const deniedPath = join(files, "denied.txt");
    const allowed = proxy.client.callTool({
      name: "write_file",
      arguments: { path: allowedPath, content: "approved in the browser\n" },
    });
    const denied = proxy.client.callTool({
      name: "write_file",
      arguments: { path: deniedPath, content: "never written\n" },
    });
    const card = (path: string) => tab.locator(".request", { hasText: path });
    await card(allowedPath).waitFor();
    await card(deniedPath).waitFor();
    expect(await tab.locator(".request .tool").allTextContents()).toEqual([
      "mcp__fs__write_file",
      "mcp__fs__write_file",
    ]);
    await tab.screenshot({ path: join(ARTIFACTS, "approval-page.png") });

    await card(allowedPath).locator("button.allow").click();
    const ran = await allowed;
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toContain("allowed.txt");
    expect(readFileSync(allowedPath, "utf8")).toBe("approved in the browser\n");

    await card(deniedPath).locator("button.deny").click();
    const refused = await denied;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("mcp__fs__write_file");
    expect(text(refused)).toContain("denied in the browser");
    expect(existsSync(deniedPath)).toBe(false);

    expect(await tab.$$eval("#decisions li", (items) => items.map((li) => li.textContent))).toEqual(
      ["mcp__fs__write_file: allow", "mcp__fs__write_file: deny"],
    );
    expect(errors).toEqual([]);
  });
});
