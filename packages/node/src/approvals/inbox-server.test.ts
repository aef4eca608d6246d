import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStore } from "./approval-store.js";
import { type InboxServer, startInboxServer } from "./inbox-server.js";
import { openApprovalStore } from "./open-approval-store.js";

// One real embedded store for the file (PGlite's first open takes seconds), one real server.
const dir = mkdtempSync(join(tmpdir(), "a3s-inbox-server-"));
const TOKEN = "inbox-test-token-0123456789";
let store: ApprovalStore;
let inbox: InboxServer;

beforeAll(async () => {
  store = await openApprovalStore(join(dir, "store"));
  inbox = await startInboxServer({ store, token: TOKEN, pollIntervalMs: 100, longPollMs: 5000 });
}, 120_000);
afterAll(async () => {
  await inbox?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };
const api = (path: string, init: RequestInit = {}) =>
  fetch(new URL(path, inbox.url), {
    ...init,
    headers: { ...auth, ...(init.headers as Record<string, string>) },
  });
const decide = (id: string, body: unknown) =>
  api(`/api/approvals/${id}/decision`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const park = (extra: Record<string, unknown> = {}) =>
  store.park({
    sessionId: "s1",
    toolName: "Bash",
    toolInput: { command: "git push" },
    reason: "pushing needs a person",
    ...extra,
  });

/** A raw request, for headers fetch will not let a caller set (Host). */
function raw(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: inbox.port, path: "/api/approvals", headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (s: string) => (body += s));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the inbox's API", () => {
  it("refuses a call without a token or with a wrong one (401)", async () => {
    const none = await fetch(new URL("/api/approvals", inbox.url));
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    const wrong = await fetch(new URL("/api/approvals", inbox.url), {
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    const prefix = await fetch(new URL("/api/approvals", inbox.url), {
      headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    });
    expect(prefix.status).toBe(401);
  });

  it("refuses a foreign Origin (403) and a Host that is not its own (421)", async () => {
    const foreign = await api("/api/approvals", { headers: { origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe(
      "PERMISSION_DENIED",
    );
    const own = await api("/api/approvals", {
      headers: { origin: `http://127.0.0.1:${inbox.port}` },
    });
    expect(own.status).toBe(200);
    const rebound = await raw({ ...auth, host: `evil.example:${inbox.port}` });
    expect(rebound.status).toBe(421);
    expect((JSON.parse(rebound.body) as { error: { code: string } }).error.code).toBe(
      "PERMISSION_DENIED",
    );
    const otherPort = await raw({ ...auth, host: `127.0.0.1:${inbox.port + 1}` });
    expect(otherPort.status).toBe(421);
    const right = await raw({ ...auth, host: `localhost:${inbox.port}` });
    expect(right.status).toBe(200);
  });

  it("serves the page with a strict CSP and no caching", async () => {
    const page = await fetch(inbox.url);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(await page.text()).toContain(`<script nonce="${nonce}">`);
  });

  it("refuses an oversized body (413), malformed JSON naming the body, a bad id naming id, an unknown id (404)", async () => {
    const parked = await park();
    const big = await decide(parked.id, {
      decision: "allow",
      by: "x",
      reason: "r".repeat(400_000),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe("LIMIT_EXCEEDED");
    const bad = await decide(parked.id, "{not json");
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { error: { code: string; path: string[] } };
    expect(badBody.error).toMatchObject({ code: "INVALID_INPUT", path: ["body"] });
    const badId = await api("/api/approvals/not-an-id");
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: { path: string[] } }).error.path).toEqual(["id"]);
    const unknown = await api("/api/approvals/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    expect((await store.get(parked.id)).status).toBe("pending");
  });

  it("lists, decides once (200), tells the second decider who was first (409)", async () => {
    const parked = await park();
    const listed = await api("/api/approvals?status=pending");
    expect(listed.status).toBe(200);
    const list = (await listed.json()) as { version: number; approvals: { id: string }[] };
    expect(list.approvals.map((a) => a.id)).toContain(parked.id);
    const one = await api(`/api/approvals/${parked.id}`);
    expect(((await one.json()) as { toolName: string }).toolName).toBe("Bash");

    const allowed = await decide(parked.id, { decision: "allow", by: "alice", reason: "fine" });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { status: string }).status).toBe("allowed");
    expect(await store.get(parked.id)).toMatchObject({ status: "allowed", decidedBy: "alice" });

    const second = await decide(parked.id, { decision: "deny", by: "bob" });
    expect(second.status).toBe(409);
    const conflict = (await second.json()) as {
      error: { code: string; message: string; details: { decidedBy: string } };
    };
    expect(conflict.error.code).toBe("ALREADY_DECIDED");
    expect(conflict.error.message).toContain("alice");
    expect(conflict.error.details.decidedBy).toBe("alice");

    const pending = (await (await api("/api/approvals")).json()) as { approvals: { id: string }[] };
    expect(pending.approvals.map((a) => a.id)).not.toContain(parked.id);
    const all = (await (await api("/api/approvals?status=all")).json()) as {
      approvals: { id: string }[];
    };
    expect(all.approvals.map((a) => a.id)).toContain(parked.id);
    expect((await api("/api/approvals?status=maybe")).status).toBe(400);
  });

  it("refuses a decider outside routing.deciders (403) and an edited input on a deny (400)", async () => {
    const routed = await park({ routing: { deciders: ["carol"] } });
    const outsider = await decide(routed.id, { decision: "allow", by: "mallory" });
    expect(outsider.status).toBe(403);
    expect(((await outsider.json()) as { error: { code: string } }).error.code).toBe("NOT_ALLOWED");
    const edited = await decide(routed.id, {
      decision: "deny",
      by: "carol",
      editedInput: { command: "ls" },
    });
    expect(edited.status).toBe(400);
    expect(((await edited.json()) as { error: { path: string[] } }).error.path).toEqual([
      "decision",
      "editedInput",
    ]);
    expect((await store.get(routed.id)).status).toBe("pending");
  });

  it("answers a long poll on a park at once, by the store's notification (an hour between reads)", async () => {
    const live = await startInboxServer({
      store,
      token: TOKEN,
      pollIntervalMs: 3_600_000,
      longPollMs: 3_600_000,
    });
    try {
      const get = async (query: string) =>
        (await (
          await fetch(new URL(`/api/approvals?${query}`, live.url), { headers: auth })
        ).json()) as { version: number; approvals: { id: string }[] };
      const first = await get("status=pending");
      const waiting = get(`status=pending&since=${first.version}`);
      const parked = await park({ sessionId: "s-notified" });
      const answer = await waiting;
      expect(answer.version).toBeGreaterThan(first.version);
      expect(answer.approvals.map((a) => a.id)).toContain(parked.id);
      // A decision through the store (not this inbox) reaches the next long poll the same way.
      const again = get(`status=pending&since=${answer.version}`);
      await store.decide(parked.id, { decision: "deny", by: "ops" });
      expect((await again).approvals.map((a) => a.id)).not.toContain(parked.id);
    } finally {
      await live.close();
    }
  });

  it("answers a long poll when an approval is parked behind its back", async () => {
    const first = (await (await api("/api/approvals?status=all")).json()) as { version: number };
    const waiting = api(`/api/approvals?status=all&since=${first.version}`);
    const parked = await park({ sessionId: "s-live" });
    const answer = (await (await waiting).json()) as {
      version: number;
      approvals: { id: string }[];
    };
    expect(answer.version).toBeGreaterThan(first.version);
    expect(answer.approvals.map((a) => a.id)).toContain(parked.id);
  });
});

describe("per-person tokens (deciders)", () => {
  const ALICE = "alice-token-0123456789abcdef";
  const BOB = "bob-token-0123456789abcdef";
  let people: InboxServer;
  beforeAll(async () => {
    people = await startInboxServer({
      store,
      token: TOKEN,
      deciders: [
        { name: "alice", token: ALICE },
        { name: "bob", token: BOB },
      ],
      pollIntervalMs: 100,
      longPollMs: 5000,
    });
  }, 120_000);
  afterAll(() => people?.close());

  const as = (token: string, path: string, init: RequestInit = {}) =>
    fetch(new URL(path, people.url), {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
  const decideAs = (token: string, id: string, body: unknown) =>
    as(token, `/api/approvals/${id}/decision`, { method: "POST", body: JSON.stringify(body) });

  it("tells the page who a token belongs to; the shared token belongs to nobody", async () => {
    expect(await (await as(ALICE, "/api/me")).json()).toEqual({ name: "alice" });
    expect(await (await as(TOKEN, "/api/me")).json()).toEqual({ name: null });
    expect((await as("alice-token-0123456789abcdeX", "/api/me")).status).toBe(401);
  });

  it("records the token's name as the decider, without a typed name", async () => {
    const parked = await park({ routing: { deciders: ["bob"] } });
    const res = await decideAs(BOB, parked.id, { decision: "allow" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "allowed", decidedBy: "bob" });
  });

  it("refuses a typed name that is not the token's, naming decision.by", async () => {
    const parked = await park();
    const res = await decideAs(ALICE, parked.id, { decision: "allow", by: "bob" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: { code: "NOT_ALLOWED", path: ["decision", "by"] },
    });
    expect((await store.get(parked.id)).status).toBe("pending");
  });

  it("enforces the hook's routing on the proven name: NOT_ALLOWED for anyone else", async () => {
    const parked = await park({ routing: { deciders: ["bob"] } });
    const res = await decideAs(ALICE, parked.id, { decision: "allow" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "NOT_ALLOWED" } });
    // The shared token still works, with its self-declared name.
    const shared = await decideAs(TOKEN, parked.id, { decision: "deny", by: "bob" });
    expect(shared.status).toBe(200);
    expect(await shared.json()).toMatchObject({ status: "denied", decidedBy: "bob" });
  });

  it("refuses bad deciders, naming the field and never showing a token", async () => {
    const start = (deciders: unknown, token?: string) =>
      startInboxServer({ store, token, deciders: deciders as never });
    await expect(start([{ name: "a", token: "short" }])).rejects.toThrow(
      /^deciders\[0\]\.token: at least 16 characters$/,
    );
    await expect(
      start([
        { name: "a", token: ALICE },
        { name: "a", token: BOB },
      ]),
    ).rejects.toThrow("deciders[1].name: a is listed twice");
    await expect(
      start([
        { name: "a", token: ALICE },
        { name: "b", token: ALICE },
      ]),
    ).rejects.toThrow(/^deciders\[1\]\.token: the same token/);
    await expect(start([{ name: "a", token: ALICE, role: "x" }])).rejects.toThrow(/deciders\[0\]/);
    await expect(start([{ name: "a", token: ALICE }], ALICE)).rejects.toThrow(
      "deciders: a decider's token is the shared token",
    );
    await expect(start(undefined)).rejects.toThrow("token: a shared token or deciders is required");
  });
});
