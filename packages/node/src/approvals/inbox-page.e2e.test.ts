import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "../../../../test-support/chromium.ts";
import type { ApprovalStore } from "./approval-store.js";
import { type InboxServer, startInboxServer } from "./inbox-server.js";
import { openApprovalStore } from "./open-approval-store.js";

// A real store, a real server, Debian's real Chromium at a phone's width.
const dir = mkdtempSync(join(tmpdir(), "a3s-inbox-page-"));
const TOKEN = "inbox-page-token-abcdef";
let store: ApprovalStore;
let inbox: InboxServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  store = await openApprovalStore(join(dir, "store"));
  inbox = await startInboxServer({ store, token: TOKEN, pollIntervalMs: 200 });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inbox?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const park = (sessionId: string, command: string) =>
  store.park({
    sessionId,
    toolName: "Bash",
    toolInput: { command },
    reason: "pushing needs a person",
    routing: { deciders: ["alice", "bob"] },
  });

it("shows a parked call on a phone, approves it by the typed name, shows the next one live", async () => {
  const first = await park("s-phone-1", "git push origin main");
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 375, height: 740 });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));

  await page.goto(`${inbox.url}#token=${TOKEN}`);
  const card = page.locator(`article[data-id="${first.id}"]`);
  await card.waitFor();
  // The token left the address bar (and stays in this tab's sessionStorage).
  expect(page.url()).toBe(inbox.url);
  expect(await page.evaluate<string | null>('sessionStorage.getItem("a3s-inbox-token")')).toBe(
    TOKEN,
  );
  await expect
    .poll(() => card.locator("pre.input").textContent())
    .toContain("git push origin main");
  expect(await card.textContent()).toContain("alice, bob");

  await page.fill("#name", "alice");
  // An edited input that is not JSON is refused in the page, before anything is sent.
  await card.locator("summary").click();
  await card.locator("textarea.edit").fill("{ not json");
  await card.getByRole("button", { name: "Approve" }).click();
  await card.locator(".message.error").waitFor();
  expect(await card.locator(".message").textContent()).toMatch(/^The edited input is not JSON/);
  expect((await store.get(first.id)).status).toBe("pending");
  await card.locator("textarea.edit").fill('{ "command": "git push origin main --dry-run" }');
  await card.locator("input.reason").fill("looks right");
  await card.getByRole("button", { name: "Approve" }).click();
  await page.locator(`#decided article[data-id="${first.id}"]`).waitFor();
  expect(await store.get(first.id)).toMatchObject({
    status: "allowed",
    decidedBy: "alice",
    decisionReason: "looks right",
    editedInput: { command: "git push origin main --dry-run" },
  });

  // Parked while the page is open: it appears without a reload.
  const second = await park("s-phone-2", "rm -rf build");
  const next = page.locator(`#pending article[data-id="${second.id}"]`);
  await next.waitFor();

  // A phone of 320 px: no horizontal scroll, the buttons inside the viewport.
  await page.setViewportSize({ width: 320, height: 640 });
  const fits = await page.evaluate<boolean>(
    "document.documentElement.scrollWidth <= window.innerWidth",
  );
  expect(fits).toBe(true);
  for (const name of ["Approve", "Deny"]) {
    const box = await next.getByRole("button", { name }).boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
  }

  expect(problems).toEqual([]);
  await page.close();
}, 120_000);

it("tells the second decider who decided first", async () => {
  // A page that has not heard of the decision yet: its long polls are held back, so it still
  // shows the approval as pending after someone else (the CLI, say) decided it.
  const slow = await startInboxServer({ store, token: TOKEN, pollIntervalMs: 60_000 });
  try {
    const parked = await park("s-conflict", "git push --force");
    const page = await browser.context.newPage();
    await page.route(
      (url) => url.searchParams.has("since"),
      () => {}, // never answered
    );
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${slow.url}#token=${TOKEN}`);
    const card = page.locator(`article[data-id="${parked.id}"]`);
    await card.waitFor();
    await store.decide(parked.id, { decision: "deny", by: "bob" });
    await page.fill("#name", "alice");
    await card.getByRole("button", { name: "Approve" }).click();
    await card.locator(".message.error").waitFor();
    expect(await card.locator(".message").textContent()).toBe("Already decided by bob (denied).");
    expect(await store.get(parked.id)).toMatchObject({ status: "denied", decidedBy: "bob" });
    await page.close();
  } finally {
    await slow.close();
  }
}, 60_000);

it("with a decider's own token, decides as that person: the name is the token's, not typed", async () => {
  const BOB = "bob-page-token-0123456789";
  const people = await startInboxServer({
    store,
    deciders: [{ name: "bob", token: BOB }],
    pollIntervalMs: 200,
  });
  try {
    const parked = await park("s-decider", "git push --tags");
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${people.url}#token=${BOB}`);
    await page.locator('body[data-decider="bob"]').waitFor();
    expect(await page.inputValue("#name")).toBe("bob");
    expect(await page.locator("#name").getAttribute("readonly")).not.toBeNull();
    const card = page.locator(`article[data-id="${parked.id}"]`);
    await card.waitFor();
    await card.getByRole("button", { name: "Deny" }).click();
    await page.locator(`#decided article[data-id="${parked.id}"]`).waitFor();
    expect(await store.get(parked.id)).toMatchObject({ status: "denied", decidedBy: "bob" });
    await page.close();
  } finally {
    await people.close();
  }
}, 60_000);

it("says so when the token is wrong", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${inbox.url}#token=wrong`);
  await page.locator('body[data-state="unauthorized"]').waitFor();
  expect(await page.locator("#banner").textContent()).toContain("Wrong or missing token");
  await page.close();
}, 60_000);
