/**
 * `a3s-demo-agent serve --ui` in real headless Chromium (Debian's, driven by playwright-core;
 * nothing downloads a browser). The page's hooks run in the browser over WebSocket; the test
 * drives the agent as an SDK user would (gRPC, same port) and a person's clicks on the page
 * decide. Every wait is on page state or a process's output, never a sleep.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { A3sClient } from "@a3s-lab/box";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test-support/chromium.ts";
import { keepScreenshot } from "../../../test-support/screenshots.ts";
import { readJsonl, startCli } from "./cli-process.js";

const TOKEN = "ui-test-token";
const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

let workdir: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;
const running = new Set<ChildProcess>();
const cleanup: (() => unknown)[] = [];

beforeAll(async () => {
  workdir = await realpath(await mkdtemp(path.join(os.tmpdir(), "demo-ui-e2e-")));
  await mkdir(ARTIFACTS, { recursive: true });
  chromium = await launchChromium();
  browser = chromium.context;
});

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  for (const child of running) await stop(child, "SIGKILL");
});

afterAll(async () => {
  await chromium?.close();
  await rm(workdir, { recursive: true, force: true });
});

/** Start `serve --ui`; resolves with its address once it prints `listening on`. */
function serve(port = 0): Promise<{ child: ChildProcess; address: string; stderr: () => string }> {
  const child = startCli(
    ["serve", "--ui", "--token", TOKEN, "--port", String(port), "--workdir", workdir, "--no-color"],
    { env: { HOME: path.join(workdir, "home"), A3S_TOKEN: undefined } },
  );
  running.add(child);
  child.once("close", () => running.delete(child));
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) resolve({ child, address: m[1]!, stderr: () => stderr });
    });
    child.once("close", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("close", (code) => resolve(code));
    child.kill(signal);
  });
}

async function openPage(
  address: string,
  options: { token?: string; viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  cleanup.push(() => page.close());
  if (options.viewport) await page.setViewportSize(options.viewport);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`http://${address}/#token=${options.token ?? TOKEN}`);
  return { page, errors };
}

/** The page's own layout box of an element, checked to lie inside the viewport. */
async function onScreen(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  const { width, height } = page.viewportSize()!;
  expect(box, selector).not.toBeNull();
  expect(box!.x, `${selector} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${selector} top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${selector} right edge`).toBeLessThanOrEqual(width);
  expect(box!.y + box!.height, `${selector} bottom edge`).toBeLessThanOrEqual(height);
}

/** True when the document scrolls sideways (page expressions as text: this file has no DOM types). */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>(
    "document.documentElement.scrollWidth > document.documentElement.clientWidth",
  );

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The agent's driver: an SDK user in this process, over gRPC on the same port. */
function sdk(address: string): A3sClient {
  const client = new A3sClient({ address, token: TOKEN });
  cleanup.push(() => client.close());
  return client;
}

const state = (page: Page, value: string) =>
  page.locator(`#state[data-state="${value}"]`).waitFor();

async function answer(page: Page, button: "allow" | "deny"): Promise<void> {
  await page.locator("#permission[open]").waitFor();
  await page.click(`#${button}`);
  await page.locator("#permission:not([open])").waitFor({ state: "attached" });
}

async function rows(page: Page): Promise<string[][]> {
  return page.$$eval("#events tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent ?? "")),
  );
}

describe("serve --ui in Chromium", () => {
  it("asks the person at the page: Deny blocks the tool, Allow runs it", async () => {
    const { address, stderr } = await serve();
    const { page, errors } = await openPage(address);
    await state(page, "ready");
    // The token came in the fragment and is gone from the address bar.
    expect(page.url()).toBe(`http://${address}/`);
    expect(stderr()).toContain(`ui: http://${address}/`);

    const agent = sdk(address);
    const sessionId = await agent.createSession();
    const proof = path.join(workdir, "denied.txt");
    const denied = agent.executeTool(sessionId, "Bash", { command: `echo no > ${proof}` });
    await page.locator("#permission[open]").waitFor();
    expect(await page.textContent("#permission-tool")).toBe("Bash");
    expect(await page.textContent("#permission-args")).toContain(`echo no > ${proof}`);
    // The README's picture of this page: rewritten by `pnpm screenshots`, size-checked otherwise.
    await keepScreenshot(
      "serve-ui-approval.png",
      await page.screenshot({ path: `${ARTIFACTS}ui-permission-dialog.png` }),
    );
    await answer(page, "deny");
    expect(await denied).toMatchObject({
      success: false,
      blocked: true,
      reason: expect.stringContaining("denied in the browser"),
    });
    expect(existsSync(proof)).toBe(false);

    const allowed = agent.executeTool(sessionId, "Bash", { command: "echo allowed-run" });
    await answer(page, "allow");
    expect(await allowed).toMatchObject({ success: true, output: "allowed-run\n" });

    await page.locator('#events tr[data-event="PostToolUse"]').waitFor();
    await page.locator('#events tr[data-event="PermissionDenied"]').waitFor();
    const list = await rows(page);
    expect(list).toEqual(
      expect.arrayContaining([
        ["PermissionRequest", `Bash echo no > ${proof}`, "denied here"],
        ["PermissionDenied", `Bash echo no > ${proof}`, "denied by hook: denied in the browser"],
        ["PermissionRequest", "Bash echo allowed-run", "allowed here"],
        ["PermissionGranted", "Bash echo allowed-run", "granted by hook"],
        ["PostToolUse", "Bash echo allowed-run", "ran"],
      ]),
    );
    await page.screenshot({ path: `${ARTIFACTS}ui-events.png`, fullPage: true });

    // The audit of the page's own hooks: its block, as one line of text, and as a download.
    const blocked = page.locator('#audit li[data-type="blocked"]');
    await blocked.waitFor();
    expect(await blocked.textContent()).toMatch(
      /^blocked PermissionRequest \(hook [\w.-]+\): denied in the browser$/,
    );
    expect(await page.locator('#audit li[data-type="registered"]').count()).toBeGreaterThan(0);
    // Every hook of the page has a readable name where the page shows it, never a UUID.
    const auditLines = await page.locator("#audit li").allTextContents();
    expect(auditLines.filter((line) => UUID.test(line))).toEqual([]);
    expect(await blocked.textContent()).toContain("(hook browser-confirmation)");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click("#audit-download"),
    ]);
    expect(download.suggestedFilename()).toBe("hooks-audit.jsonl");
    const file = await download.path();
    const records = readJsonl<{ type: string; event?: string; reason?: string }>(file);
    expect(records).toContainEqual(
      expect.objectContaining({
        type: "blocked",
        event: "PermissionRequest",
        reason: "denied in the browser",
      }),
    );
    expect(errors).toEqual([]);
  });

  it("lets the page drive the agent too: a prompt, its tool call approved on the spot", async () => {
    const { address } = await serve();
    const { page, errors } = await openPage(address);
    await state(page, "ready");
    await page.fill("#prompt", "bash: echo from-the-page");
    await page.click("#prompt-form button");
    await answer(page, "allow");
    await page.locator("#reply", { hasText: "from-the-page" }).waitFor();
    expect(await page.textContent("#reply")).toContain("from-the-page");
    expect(errors).toEqual([]);
  });

  it("refuses a page from another origin, even one that knows the token", async () => {
    const { address } = await serve();
    const foreign = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><body><script type="module">
        const frames = [];
        const ws = new WebSocket("ws://${address}/", "a3s.hooks.v1");
        ws.onopen = () => ws.send(JSON.stringify({ type: "Hello", clientId: "evil", token: "${TOKEN}" }));
        ws.onmessage = (e) => frames.push(e.data);
        ws.onclose = (e) => {
          document.body.dataset.frames = String(frames.length);
          document.body.dataset.reason = e.reason;
          document.body.dataset.closed = String(e.code);
        };
      </script></body>`);
    });
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => {
      foreign.closeAllConnections();
      return new Promise((resolve) => foreign.close(resolve));
    });
    const page = await browser.newPage();
    cleanup.push(() => page.close());
    await page.goto(`http://127.0.0.1:${(foreign.address() as { port: number }).port}/`);
    await page.locator("body[data-closed]").waitFor({ state: "attached" });
    const data = await page.$eval("body", (body) => ({
      ...(body as unknown as { dataset: Record<string, string> }).dataset,
    }));
    expect(data).toEqual({
      closed: "4403",
      frames: "0",
      reason: expect.stringMatching(/^origin http:\/\/127\.0\.0\.1:\d+ is not allowed$/),
    });
  });

  it("reconnects after the server restarts, registers its hooks again, and answers", async () => {
    const first = await serve();
    const port = Number(first.address.split(":").at(-1));
    const { page, errors } = await openPage(first.address);
    await state(page, "ready");
    const prompt = page.getByRole("textbox", { name: "Prompt for the agent" });
    const send = page.getByRole("button", { name: "Send" });
    expect(await send.isEnabled()).toBe(true);
    expect(await stop(first.child)).toBe(0);
    await state(page, "reconnecting");
    // Not connected: nothing to ask, and the page says what is going on in plain words.
    expect(await send.isDisabled()).toBe(true);
    expect(await prompt.isDisabled()).toBe(true);
    expect(await page.textContent("#problem")).toBe(
      "Lost the connection to the agent; trying again…",
    );
    const second = await serve(port);
    expect(second.address).toBe(first.address);
    await state(page, "ready");
    expect(await send.isEnabled()).toBe(true);
    const agent = sdk(second.address);
    const sessionId = await agent.createSession();
    const run = agent.executeTool(sessionId, "Bash", { command: "echo after-restart" });
    await answer(page, "allow");
    expect(await run).toMatchObject({ success: true, output: "after-restart\n" });
    await page.screenshot({ path: `${ARTIFACTS}ui-after-restart.png`, fullPage: true });
    // The drop was reported while it lasted; nothing else went wrong on the page.
    expect(errors.filter((e) => !/WebSocket/.test(e))).toEqual([]);
  });

  it("says a wrong token in plain words, asks for it again in a labelled box, and keeps nothing", async () => {
    const { address } = await serve();
    const { page } = await openPage(address, { token: "not-the-token" });
    await state(page, "failed");
    const said = await page.textContent("#problem");
    expect(said).toBe(
      "The agent did not accept this token. Paste the token that serve printed and connect again.",
    );
    expect(said).not.toMatch(/Hello|token:/);
    const box = page.getByLabel("Token of the hook server");
    expect(await box.isVisible()).toBe(true);
    expect(await page.evaluate<number>("sessionStorage.length")).toBe(0);
    // The right token, typed in: connected, and the prompt box has its label.
    await box.fill(TOKEN);
    await page.getByRole("button", { name: "Connect" }).click();
    await state(page, "ready");
    expect(await page.textContent("#problem")).toBe("");
    expect(await page.getByRole("textbox", { name: "Prompt for the agent" }).isEnabled()).toBe(
      true,
    );
  });

  for (const width of [375, 320]) {
    it(`fits a phone ${width} px wide: Allow on screen and working, long event rows without sideways scroll`, async () => {
      const { address } = await serve();
      const { page, errors } = await openPage(address, { viewport: { width, height: 640 } });
      await state(page, "ready");
      const agent = sdk(address);
      const sessionId = await agent.createSession();
      // Rows with long unbroken words: read-only tools run unasked and fill the list.
      const long = `${"a-very-long-file-name-without-spaces-".repeat(6)}.txt`;
      for (let i = 0; i < 12; i++)
        await agent.executeTool(sessionId, "Read", {
          file_path: path.join(workdir, `${i}${long}`),
        });
      await page.locator("#events tr").nth(23).waitFor();
      expect(await scrollsSideways(page)).toBe(false);

      const command = `echo ${"x".repeat(120)} && echo phone-${width}`;
      const run = agent.executeTool(sessionId, "Bash", { command });
      await page.locator("#permission[open]").waitFor();
      for (const selector of ["#permission", "#allow", "#deny"]) await onScreen(page, selector);
      expect(await scrollsSideways(page)).toBe(false);
      if (width === 375) {
        await page.screenshot({ path: `${ARTIFACTS}ui-phone-dialog.png` });
      }
      // A real click at the button's place on the screen, as a thumb would.
      await page.getByRole("button", { name: "Allow" }).click({ trial: false });
      expect(await run).toMatchObject({
        success: true,
        output: expect.stringContaining(`phone-${width}`),
      });
      await page.locator('#events tr[data-event="PostToolUse"]').first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      if (width === 375) {
        await page.screenshot({
          path: `${ARTIFACTS}ui-phone-events.png`,
          fullPage: true,
          clip: { x: 0, y: 0, width, height: 1000 },
        });
      }
      expect(errors).toEqual([]);
    });
  }

  it("a closed page lets go of its hooks at once: a new page's Allow works", async () => {
    const { address } = await serve();
    const { page: before } = await openPage(address);
    await state(before, "ready");
    await before.close();
    const { page, errors } = await openPage(address);
    await state(page, "ready");
    const agent = sdk(address);
    const sessionId = await agent.createSession();
    const started = Date.now();
    const run = agent.executeTool(sessionId, "Bash", { command: "echo after-close" });
    await answer(page, "allow");
    expect(await run).toMatchObject({ success: true, output: "after-close\n" });
    // Well inside the agent's 30 s reconnect window: nothing of the closed page was waited for.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errors).toEqual([]);
  });

  it("a reload resumes its own client: no token asked, the address stays clean, Allow works", async () => {
    const { address } = await serve();
    const { page, errors } = await openPage(address);
    await state(page, "ready");
    const kept = async () =>
      JSON.parse(
        (await page.evaluate<string | null>('sessionStorage.getItem("a3s-demo-page")')) ?? "null",
      ) as { token: string; clientId: string };
    const before = await kept();
    expect(before).toMatchObject({ token: TOKEN, clientId: expect.stringMatching(/^page-/) });
    await page.reload();
    await state(page, "ready");
    expect(page.url()).toBe(`http://${address}/`);
    expect(await page.locator("#login").isHidden()).toBe(true);
    expect((await kept()).clientId).toBe(before.clientId);
    const agent = sdk(address);
    const sessionId = await agent.createSession();
    const run = agent.executeTool(sessionId, "Bash", { command: "echo after-reload" });
    await answer(page, "allow");
    expect(await run).toMatchObject({ success: true, output: "after-reload\n" });
    expect(errors.filter((e) => !/WebSocket/.test(e))).toEqual([]);
  });

  it("carries on as a new client when the kept client id is held by a page it cannot prove to be", async () => {
    const { address } = await serve();
    const { page: first } = await openPage(address);
    await state(first, "ready");
    const held = JSON.parse(
      (await first.evaluate<string | null>('sessionStorage.getItem("a3s-demo-page")')) ?? "null",
    ) as { clientId: string };
    // Another tab that somehow kept the same id, without its secret.
    const page = await browser.newPage();
    cleanup.push(() => page.close());
    await page.goto(`http://${address}/`);
    await page.evaluate(
      `sessionStorage.setItem("a3s-demo-page", ${JSON.stringify(
        JSON.stringify({ token: TOKEN, clientId: held.clientId, clientSecret: "not-its-secret" }),
      )})`,
    );
    await page.reload();
    await state(page, "ready");
    const now = JSON.parse(
      (await page.evaluate<string | null>('sessionStorage.getItem("a3s-demo-page")')) ?? "null",
    ) as { clientId: string };
    expect(now.clientId).not.toBe(held.clientId);
    // The page that holds the id was not disturbed.
    expect(await first.getAttribute("#state", "data-state")).toBe("ready");
  });
});
