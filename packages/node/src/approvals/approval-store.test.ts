import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HookError } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres } from "../../../../test-support/postgres-server.ts";
import { DEADLINE_DECIDER, MAX_TOOL_INPUT_BYTES, type ParkRequest } from "./approval.js";
import { ApprovalError, type ApprovalErrorReason } from "./approval-error.js";
import { type ApprovalStore, createSqlApprovalStore } from "./approval-store.js";
import { MIGRATIONS, migrate } from "./migrations.js";
import { pgDriver } from "./pg-driver.js";
import { pgliteDriver } from "./pglite-driver.js";
import type { SqlDriver } from "./sql-driver.js";

// Opening PGlite compiles PostgreSQL's WebAssembly and starting a server runs initdb: seconds on
// a loaded machine, so one database per kind, shared by the tests (each parks its own calls).
const SETUP_MS = 240_000;
const HOUR = 3_600_000;

interface Kind {
  name: string;
  /** A driver on the shared database; a new connection where the database allows one. */
  driver(): Promise<SqlDriver>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

function embedded(): Kind {
  let dir = "";
  let shared: SqlDriver | undefined;
  return {
    name: "embedded (PGlite)",
    async setup() {
      dir = await mkdtemp(path.join(os.tmpdir(), "a3s-approvals-"));
      shared = await pgliteDriver(path.join(dir, "store"));
    },
    // One process owns a PGlite folder: every store in this process shares the one database;
    // closing a store must not close it under the others.
    async driver() {
      const db = shared as SqlDriver;
      return { ...db, close: async () => {} };
    },
    async teardown() {
      await shared?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function postgres(): Kind {
  let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
  return {
    name: "PostgreSQL",
    async setup() {
      server = await startPostgres();
    },
    driver: () => pgDriver((server as { url: string }).url),
    async teardown() {
      await server?.stop();
    },
  };
}

const call = (over: Partial<ParkRequest> = {}): ParkRequest => ({
  sessionId: `s-${Math.random().toString(36).slice(2)}`,
  toolName: "Bash",
  toolInput: { command: "git push origin main" },
  reason: "pushing needs a person",
  ...over,
});

async function refusal(promise: Promise<unknown>): Promise<ApprovalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApprovalError);
  return error as ApprovalError;
}

async function expectRefused(
  promise: Promise<unknown>,
  reason: ApprovalErrorReason,
  fieldPath: (string | number)[],
) {
  const error = await refusal(promise);
  expect(error.reason).toBe(reason);
  expect(error.path).toEqual(fieldPath);
  expect(error.message).toContain(fieldPath.join("."));
}

describe.each([embedded(), postgres()])("approval store: $name", (kind) => {
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const now = () => new Date(clock);
  let store: ApprovalStore;
  const extra: ApprovalStore[] = [];
  const open = async (pollIntervalMs = HOUR) => {
    const s = await createSqlApprovalStore(await kind.driver(), { now, pollIntervalMs });
    extra.push(s);
    return s;
  };

  beforeAll(async () => {
    await kind.setup();
    store = await open();
  }, SETUP_MS);
  afterAll(async () => {
    for (const s of extra) await s.close();
    await kind.teardown();
  }, SETUP_MS);

  it("parks a call with an unguessable id and reads it back", async () => {
    const a = await store.park(
      call({
        toolUseId: "toolu_1",
        routing: { deciders: ["alice"], deadline: new Date(clock + HOUR) },
        context: { messages: [{ role: "user", content: "ship it" }] },
      }),
    );
    const b = await store.park(call());
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.status).toBe("pending");
    const read = await store.get(a.id);
    expect(read).toEqual(a);
    expect(read.toolInput).toEqual({ command: "git push origin main" });
    expect(read.context).toEqual({ messages: [{ role: "user", content: "ship it" }] });
    expect(read.deciders).toEqual(["alice"]);
    expect(read.onDeadline).toBe("deny");
    expect(read.deadline).toBe(new Date(clock + HOUR).toISOString());
    expect(read.toolUseId).toBe("toolu_1");
  });

  it("counts a hook's duration deadline from the park, on the store's clock", async () => {
    const a = await store.park(call({ routing: { deadline: "30m", onDeadline: "allow" } }));
    expect(a.deadline).toBe(new Date(clock + 30 * 60_000).toISOString());
    expect(a.onDeadline).toBe("allow");
    const b = await store.park(call({ routing: { deadline: "2d" } }));
    expect(b.deadline).toBe(new Date(clock + 2 * 86_400_000).toISOString());
  });

  it("lists by session and status, oldest first", async () => {
    const sessionId = "list-session";
    const first = await store.park(call({ sessionId }));
    clock += 1000;
    const second = await store.park(call({ sessionId }));
    await store.decide(first.id, { decision: "deny", by: "alice" });
    expect((await store.list({ sessionId })).map((a) => a.id)).toEqual([first.id, second.id]);
    expect((await store.list({ sessionId, status: "pending" })).map((a) => a.id)).toEqual([
      second.id,
    ]);
    expect((await store.list({ sessionId, order: "newest" })).map((a) => a.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect((await store.list({ sessionId, order: "newest", limit: 1 })).map((a) => a.id)).toEqual([
      second.id,
    ]);
    await expectRefused(store.list({ limit: 0 }), "INVALID_INPUT", ["filter", "limit"]);
    await expectRefused(store.list({ order: "sideways" as "newest" }), "INVALID_INPUT", [
      "filter",
      "order",
    ]);
  });

  it("keeps the first decision and tells the second decider", async () => {
    const a = await store.park(call());
    const decided = await store.decide(a.id, {
      decision: "allow",
      by: "alice",
      editedInput: { command: "git push --dry-run" },
    });
    expect(decided).toMatchObject({ status: "allowed", decidedBy: "alice" });
    expect(decided.editedInput).toEqual({ command: "git push --dry-run" });
    const error = await refusal(store.decide(a.id, { decision: "deny", by: "bob" }));
    expect(error.reason).toBe("ALREADY_DECIDED");
    expect(error.message).toContain("allowed by alice");
    expect((await store.get(a.id)).status).toBe("allowed");
  });

  it("lets exactly one of two simultaneous deciders win", async () => {
    const other = await open();
    const a = await store.park(call());
    const results = await Promise.allSettled([
      store.decide(a.id, { decision: "allow", by: "alice" }),
      other.decide(a.id, { decision: "deny", by: "bob" }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(
      ApprovalError.isReason((lost[0] as PromiseRejectedResult).reason, "ALREADY_DECIDED"),
    ).toBe(true);
    const stored = await store.get(a.id);
    expect(stored.decidedBy).toBe(stored.status === "allowed" ? "alice" : "bob");
  });

  it("refuses a decider the routing does not name", async () => {
    const a = await store.park(call({ routing: { deciders: ["alice"] } }));
    await expectRefused(store.decide(a.id, { decision: "allow", by: "mallory" }), "NOT_ALLOWED", [
      "decision",
      "by",
    ]);
    expect((await store.get(a.id)).status).toBe("pending");
    expect((await store.decide(a.id, { decision: "allow", by: "alice" })).status).toBe("allowed");
  });

  it("resumes a decided call exactly once, even when two agents claim it at once", async () => {
    const other = await open();
    const a = await store.park(call());
    await expectRefused(store.claimResume(a.id), "NOT_DECIDED", ["id"]);
    await store.decide(a.id, { decision: "allow", by: "alice" });
    const results = await Promise.allSettled([store.claimResume(a.id), other.claimResume(a.id)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const claimed = (await store.get(a.id)).resumedAt;
    expect(claimed).toBe(now().toISOString());
    await expectRefused(store.claimResume(a.id), "ALREADY_RESUMED", ["id"]);
  });

  it("completes a claimed resume once; a claim never completed stays visible", async () => {
    const a = await store.park(call());
    await store.decide(a.id, { decision: "allow", by: "alice" });
    await expectRefused(store.completeResume(a.id), "NOT_DECIDED", ["id"]);
    const claimed = await store.claimResume(a.id);
    expect(claimed.resumedAt).toBe(now().toISOString());
    expect(claimed.completedAt).toBeUndefined();
    expect((await store.get(a.id)).completedAt).toBeUndefined();
    clock += 1000;
    const done = await store.completeResume(a.id);
    expect(done.completedAt).toBe(now().toISOString());
    clock += 1000;
    // Again: the first time stands.
    expect((await store.completeResume(a.id)).completedAt).toBe(done.completedAt);
    await expectRefused(store.claimResume(a.id), "ALREADY_RESUMED", ["id"]);
  });

  it("tells a watcher of every park, decision, claim and completion, from another store too", async () => {
    const watching = await open();
    const seen: string[] = [];
    let wake: (() => void) | undefined;
    const undo = await watching.onChange((id) => {
      seen.push(id);
      wake?.();
    });
    const next = (count: number) =>
      new Promise<void>((resolve) => {
        wake = () => {
          if (seen.length >= count) resolve();
        };
        wake();
      });
    // An hour between polls: only a notification explains what the watcher sees.
    const a = await store.park(call());
    await next(1);
    await store.decide(a.id, { decision: "allow", by: "alice" });
    await next(2);
    await store.claimResume(a.id);
    await next(3);
    await store.completeResume(a.id);
    await next(4);
    expect(seen.slice(0, 4)).toEqual([a.id, a.id, a.id, a.id]);
    await undo();
    const b = await store.park(call());
    await store.get(b.id);
    expect(seen).not.toContain(b.id);
  });

  it("records the deadline's decision, deny unless the hook said otherwise", async () => {
    const denied = await store.park(call({ routing: { deadline: new Date(clock + 60_000) } }));
    const allowed = await store.park(
      call({ routing: { deadline: new Date(clock + 60_000), onDeadline: "allow" } }),
    );
    const later = await store.park(call({ routing: { deadline: new Date(clock + HOUR) } }));
    expect(await store.expireDue()).toEqual([]);
    clock += 120_000;
    const expired = await store.expireDue();
    const byId = new Map(expired.map((a) => [a.id, a]));
    expect(byId.get(denied.id)).toMatchObject({ status: "denied", decidedBy: DEADLINE_DECIDER });
    expect(byId.get(allowed.id)).toMatchObject({ status: "allowed", decidedBy: DEADLINE_DECIDER });
    expect(byId.has(later.id)).toBe(false);
    expect((await store.get(later.id)).status).toBe("pending");
  });

  it("refuses a decision that comes after the deadline, and records the deadline's", async () => {
    const a = await store.park(call({ routing: { deadline: new Date(clock + 60_000) } }));
    clock += 120_000;
    await expectRefused(store.decide(a.id, { decision: "allow", by: "alice" }), "ALREADY_DECIDED", [
      "id",
    ]);
    expect(await store.get(a.id)).toMatchObject({ status: "denied", decidedBy: DEADLINE_DECIDER });
  });

  it("wakes a waiter on a decision from another store, by notification alone", async () => {
    const inbox = await open();
    const a = await store.park(call());
    // An hour between polls: only the notification can wake the waiter within the test.
    const waiting = store.waitForDecision(a.id);
    await inbox.decide(a.id, { decision: "allow", by: "alice" });
    expect(await waiting).toMatchObject({ id: a.id, status: "allowed", decidedBy: "alice" });
  });

  it("falls back to polling when no notification comes", async () => {
    const driver = await kind.driver();
    const polling = await open(20);
    const a = await polling.park(call());
    const waiting = polling.waitForDecision(a.id);
    // Decided behind the store's back: no NOTIFY, as from a process that cannot send one.
    await driver.query(
      "UPDATE a3s_approvals SET status = 'denied', decided_by = 'ops', decided_at = now() WHERE id = $1",
      [a.id],
    );
    expect(await waiting).toMatchObject({ status: "denied", decidedBy: "ops" });
    await driver.close();
  });

  it("ends a wait at the deadline with the deadline's decision", async () => {
    const polling = await open(20);
    const a = await polling.park(call({ routing: { deadline: new Date(clock + 60_000) } }));
    const waiting = polling.waitForDecision(a.id);
    clock += 120_000;
    expect(await waiting).toMatchObject({ status: "denied", decidedBy: DEADLINE_DECIDER });
  });

  it("stops waiting when the signal aborts", async () => {
    const a = await store.park(call());
    const controller = new AbortController();
    const waiting = store.waitForDecision(a.id, { signal: controller.signal });
    controller.abort();
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(HookError.is(error, "ABORTED")).toBe(true);
    expect((await store.get(a.id)).status).toBe("pending");
  });

  it("refuses bad input with an error naming the field", async () => {
    await expectRefused(store.get("../../etc/passwd"), "INVALID_INPUT", ["id"]);
    await expectRefused(store.get("00000000-0000-4000-8000-000000000000"), "NOT_FOUND", ["id"]);
    await expectRefused(
      store.park(call({ toolInput: { blob: "x".repeat(MAX_TOOL_INPUT_BYTES) } })),
      "INVALID_INPUT",
      ["toolInput"],
    );
    await expectRefused(store.park(call({ sessionId: "" })), "INVALID_INPUT", [
      "request",
      "sessionId",
    ]);
    await expectRefused(store.park(call({ routing: { deadline: "tomorrow" } })), "INVALID_INPUT", [
      "request",
      "routing",
      "deadline",
    ]);
    const a = await store.park(call());
    await expectRefused(
      store.decide(a.id, { decision: "deny", by: "alice", editedInput: { command: "ls" } }),
      "INVALID_INPUT",
      ["decision", "editedInput"],
    );
    await expectRefused(
      store.decide(a.id, { decision: "maybe" as "allow", by: "alice" }),
      "INVALID_INPUT",
      ["decision", "decision"],
    );
    expect((await store.list({ status: "pending" })).some((p) => p.sessionId === "")).toBe(false);
  });

  it("migrates once, however many stores open the database at the same time", async () => {
    const drivers = await Promise.all([kind.driver(), kind.driver()]);
    expect(await Promise.all(drivers.map((d) => migrate(d)))).toEqual([
      MIGRATIONS.length,
      MIGRATIONS.length,
    ]);
    const rows = await drivers[0]!.query<{ version: number }>(
      "SELECT version FROM a3s_approvals_migrations ORDER BY version",
    );
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    for (const d of drivers) await d.close();
  });
});

it("keeps a resume recorded before completions were as finished, when version 2 arrives", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "a3s-approvals-v1-"));
  const driver = await pgliteDriver(path.join(dir, "store"));
  try {
    // A store as version 1 left it: one call resumed, one decided and not yet resumed.
    await driver.transaction(async (query) => {
      for (const statement of MIGRATIONS[0]!.sql.split(";").map((s) => s.trim())) {
        if (statement !== "") await query(statement);
      }
      await query(
        "CREATE TABLE a3s_approvals_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      await query("INSERT INTO a3s_approvals_migrations (version) VALUES (1)");
      const row = `'s1', 'Bash', '{"command":"git push"}', 'needs a person', '[]', 'deny', now(), 'allowed', 'alice', now()`;
      await query(
        `INSERT INTO a3s_approvals (id, session_id, tool_name, tool_input, reason, deciders, on_deadline, created_at, status, decided_by, decided_at, resumed_at) VALUES ('${randomUUID()}', ${row}, now() + interval '1 second')`,
      );
      await query(
        `INSERT INTO a3s_approvals (id, session_id, tool_name, tool_input, reason, deciders, on_deadline, created_at, status, decided_by, decided_at) VALUES ('${randomUUID()}', ${row})`,
      );
    });
    expect(await migrate(driver)).toBe(MIGRATIONS.length);
    const rows = await driver.query<{ resumed: boolean; same: boolean | null }>(
      "SELECT resumed_at IS NOT NULL AS resumed, completed_at = resumed_at AS same FROM a3s_approvals ORDER BY resumed_at NULLS LAST",
    );
    expect(rows).toEqual([
      { resumed: true, same: true },
      { resumed: false, same: null },
    ]);
  } finally {
    await driver.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
