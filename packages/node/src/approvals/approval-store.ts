import { randomUUID } from "node:crypto";
import { HookError } from "@a3s-lab/hooks-core";
import {
  type Approval,
  type ApprovalStatus,
  checkDecision,
  checkId,
  checkPark,
  DEADLINE_DECIDER,
  type DecisionInput,
  type ParkRequest,
} from "./approval.js";
import { ApprovalError } from "./approval-error.js";
import { migrate } from "./migrations.js";
import type { SqlDriver } from "./sql-driver.js";

const CHANNEL = "a3s_approvals";
const COLUMNS = "*";

/** Which approvals {@link ApprovalStore.list} returns. */
export interface ApprovalFilter {
  /** Only approvals in this state. */
  status?: ApprovalStatus;
  /** Only this session's approvals. */
  sessionId?: string;
  /** At most this many (in {@link ApprovalFilter.order}); 100 unless given (at most 1000). */
  limit?: number;
  /** Oldest (parked first) or newest first; `"oldest"` unless given. */
  order?: "oldest" | "newest";
}

/** Options of an approval store. */
export interface ApprovalStoreOptions {
  /** The clock, for tests of deadlines; `() => new Date()` unless given. */
  now?: () => Date;
  /**
   * How often a waiter reads the database again in case a notification was missed (another
   * process on a store without notifications between processes, a dropped connection).
   * Milliseconds; 1000 unless given.
   */
  pollIntervalMs?: number;
}

/**
 * Where deferred tool calls wait for a person. An agent parks a call, whoever holds the inbox
 * decides it (the first decision wins), and the agent, this process or a new one, claims the
 * resume exactly once. Open one with {@link openApprovalStore}.
 */
export interface ApprovalStore {
  /** Park a deferred call durably; resolves once it is written. */
  park(request: ParkRequest): Promise<Approval>;
  /** One approval; `NOT_FOUND` when there is none with that id. */
  get(id: string): Promise<Approval>;
  /** Approvals, oldest first unless the filter says newest. */
  list(filter?: ApprovalFilter): Promise<Approval[]>;
  /**
   * Decide a pending approval. The first decision wins: a later one (or one after the deadline)
   * is refused with `ALREADY_DECIDED`; a decider outside the routing with `NOT_ALLOWED`.
   */
  decide(id: string, decision: DecisionInput): Promise<Approval>;
  /**
   * Claim the right to resume a decided call. Succeeds once per approval, across processes;
   * later claims get `ALREADY_RESUMED`, a claim before any decision `NOT_DECIDED`.
   */
  claimResume(id: string): Promise<Approval>;
  /**
   * Record that the resumed call finished (ran, or was refused), after a successful
   * {@link ApprovalStore.claimResume}. A claim never completed is a resume that stopped part-way
   * (the process died): the call is not run again, and may or may not have run. Completing twice
   * is harmless; completing an approval nobody claimed is `NOT_DECIDED`.
   */
  completeResume(id: string): Promise<Approval>;
  /** Record the deadline's decision on every pending approval past its deadline. */
  expireDue(): Promise<Approval[]>;
  /** Resolve when the approval is decided (by a person or its deadline); `signal` aborts. */
  waitForDecision(id: string, options?: { signal?: AbortSignal }): Promise<Approval>;
  /**
   * Call `listener` with an approval's id whenever one is parked, decided, claimed or completed,
   * through this store or (on PostgreSQL) any other; resolves to the undo. The embedded store
   * hears only its own process.
   */
  onChange(listener: (id: string) => void): Promise<() => Promise<void>>;
  /** Close the store and the database under it. */
  close(): Promise<void>;
}

type Row = Record<string, unknown>;

function iso(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

function json(value: unknown): unknown {
  // PGlite and node-postgres both parse jsonb; a string here would be a driver that does not.
  return value;
}

function toApproval(row: Row): Approval {
  const approval: Approval = {
    id: String(row.id),
    sessionId: String(row.session_id),
    toolName: String(row.tool_name),
    toolInput: json(row.tool_input),
    reason: String(row.reason),
    deciders: json(row.deciders) as string[],
    onDeadline: row.on_deadline === "allow" ? "allow" : "deny",
    createdAt: iso(row.created_at) as string,
    status: row.status as ApprovalStatus,
  };
  if (row.tool_use_id != null) approval.toolUseId = String(row.tool_use_id);
  const deadline = iso(row.deadline);
  if (deadline !== undefined) approval.deadline = deadline;
  if (row.context != null) approval.context = json(row.context);
  if (row.decided_by != null) approval.decidedBy = String(row.decided_by);
  const decidedAt = iso(row.decided_at);
  if (decidedAt !== undefined) approval.decidedAt = decidedAt;
  if (row.decision_reason != null) approval.decisionReason = String(row.decision_reason);
  if (row.edited_input != null) approval.editedInput = json(row.edited_input);
  const resumedAt = iso(row.resumed_at);
  if (resumedAt !== undefined) approval.resumedAt = resumedAt;
  const completedAt = iso(row.completed_at);
  if (completedAt !== undefined) approval.completedAt = completedAt;
  return approval;
}

/**
 * An approval store over any PostgreSQL-speaking {@link SqlDriver}; runs the migrations first.
 * Decisions and resumes are single conditional UPDATEs, so two deciders or two resuming agents
 * race inside the database, not in this process.
 */
export async function createSqlApprovalStore(
  driver: SqlDriver,
  options: ApprovalStoreOptions = {},
): Promise<ApprovalStore> {
  await migrate(driver);
  const now = options.now ?? (() => new Date());
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const waiters = new Map<string, Set<() => void>>();
  const watchers = new Set<(id: string) => void>();
  let unlisten: Promise<() => Promise<void>> | undefined;
  let closed = false;

  const wake = (id: string) => {
    for (const fn of waiters.get(id) ?? []) fn();
    for (const fn of watchers) fn(id);
  };
  const ensureListening = () => {
    unlisten ??= driver.listen(CHANNEL, wake);
    return unlisten;
  };

  const read = async (id: string): Promise<Approval> => {
    const rows = await driver.query(`SELECT ${COLUMNS} FROM a3s_approvals WHERE id = $1`, [id]);
    const row = rows[0];
    if (row === undefined) {
      throw new ApprovalError("NOT_FOUND", `id: no approval ${id}`, { path: ["id"] });
    }
    return toApproval(row);
  };

  const expire = async (id?: string): Promise<Approval[]> => {
    const rows = await driver.query(
      `WITH done AS (
         UPDATE a3s_approvals
            SET status = CASE on_deadline WHEN 'allow' THEN 'allowed' ELSE 'denied' END,
                decided_by = $2, decided_at = $1, decision_reason = 'deadline passed'
          WHERE status = 'pending' AND deadline IS NOT NULL AND deadline <= $1
            AND ($3::text IS NULL OR id = $3)
          RETURNING ${COLUMNS})
       SELECT done.*, pg_notify('${CHANNEL}', done.id) AS notified FROM done`,
      [now(), DEADLINE_DECIDER, id ?? null],
    );
    return rows.map(toApproval);
  };

  const store: ApprovalStore = {
    async park(request) {
      const checked = checkPark(request, now());
      const { request: r } = checked;
      // The NOTIFY goes out with the commit, so an open inbox shows the call at once.
      const rows = await driver.query(
        `WITH done AS (
           INSERT INTO a3s_approvals (id, session_id, tool_name, tool_use_id, tool_input, reason,
             deciders, deadline, on_deadline, context, created_at, status)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb, $8, $9, $10::jsonb, $11, 'pending')
           RETURNING ${COLUMNS})
         SELECT done.*, pg_notify('${CHANNEL}', done.id) AS notified FROM done`,
        [
          randomUUID(),
          r.sessionId,
          r.toolName,
          r.toolUseId ?? null,
          checked.toolInputJson,
          r.reason,
          JSON.stringify(r.routing?.deciders ?? []),
          checked.deadline,
          r.routing?.onDeadline ?? "deny",
          checked.contextJson,
          now(),
        ],
      );
      return toApproval(rows[0] as Row);
    },

    async get(id) {
      return read(checkId(id));
    },

    async list(filter = {}) {
      const limit = filter.limit ?? 100;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new ApprovalError("INVALID_INPUT", "filter.limit: an integer from 1 to 1000", {
          path: ["filter", "limit"],
        });
      }
      const order = filter.order ?? "oldest";
      if (order !== "oldest" && order !== "newest") {
        throw new ApprovalError("INVALID_INPUT", "filter.order: oldest or newest", {
          path: ["filter", "order"],
        });
      }
      const direction = order === "newest" ? "DESC" : "ASC";
      const rows = await driver.query(
        `SELECT ${COLUMNS} FROM a3s_approvals
          WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR session_id = $2)
          ORDER BY created_at ${direction}, id ${direction} LIMIT $3`,
        [filter.status ?? null, filter.sessionId ?? null, limit],
      );
      return rows.map(toApproval);
    },

    async decide(id, decision) {
      checkId(id);
      const { input, editedJson } = checkDecision(decision);
      await expire(id);
      const rows = await driver.query(
        `WITH done AS (
           UPDATE a3s_approvals
              SET status = $2, decided_by = $3, decided_at = $4, decision_reason = $5,
                  edited_input = $6::jsonb
            WHERE id = $1 AND status = 'pending'
              AND (jsonb_array_length(deciders) = 0 OR deciders ? $3)
            RETURNING ${COLUMNS})
         SELECT done.*, pg_notify('${CHANNEL}', done.id) AS notified FROM done`,
        [
          id,
          input.decision === "allow" ? "allowed" : "denied",
          input.by,
          now(),
          input.reason ?? null,
          editedJson,
        ],
      );
      if (rows[0] !== undefined) return toApproval(rows[0]);
      const current = await read(id);
      if (current.status !== "pending") {
        throw new ApprovalError(
          "ALREADY_DECIDED",
          `id: approval ${id} was already decided (${current.status} by ${current.decidedBy})`,
          { path: ["id"], details: { status: current.status, decidedBy: current.decidedBy } },
        );
      }
      throw new ApprovalError(
        "NOT_ALLOWED",
        `decision.by: ${JSON.stringify(input.by)} may not decide approval ${id}`,
        { path: ["decision", "by"], details: { deciders: current.deciders } },
      );
    },

    async claimResume(id) {
      checkId(id);
      await expire(id);
      const rows = await driver.query(
        `WITH done AS (
           UPDATE a3s_approvals SET resumed_at = $2
            WHERE id = $1 AND status <> 'pending' AND resumed_at IS NULL
            RETURNING ${COLUMNS})
         SELECT done.*, pg_notify('${CHANNEL}', done.id) AS notified FROM done`,
        [id, now()],
      );
      if (rows[0] !== undefined) return toApproval(rows[0]);
      const current = await read(id);
      if (current.status === "pending") {
        throw new ApprovalError("NOT_DECIDED", `id: approval ${id} is not decided yet`, {
          path: ["id"],
        });
      }
      throw new ApprovalError(
        "ALREADY_RESUMED",
        `id: approval ${id} was already resumed at ${current.resumedAt}`,
        { path: ["id"], details: { resumedAt: current.resumedAt } },
      );
    },

    async completeResume(id) {
      checkId(id);
      const rows = await driver.query(
        `WITH done AS (
           UPDATE a3s_approvals SET completed_at = $2
            WHERE id = $1 AND resumed_at IS NOT NULL AND completed_at IS NULL
            RETURNING ${COLUMNS})
         SELECT done.*, pg_notify('${CHANNEL}', done.id) AS notified FROM done`,
        [id, now()],
      );
      if (rows[0] !== undefined) return toApproval(rows[0]);
      const current = await read(id);
      if (current.completedAt !== undefined) return current;
      throw new ApprovalError(
        "NOT_DECIDED",
        `id: approval ${id} has no claimed resume to complete (claim it first)`,
        { path: ["id"] },
      );
    },

    expireDue() {
      return expire();
    },

    async onChange(listener) {
      await ensureListening();
      const watcher = (id: string) => listener(id);
      watchers.add(watcher);
      return async () => {
        watchers.delete(watcher);
      };
    },

    async waitForDecision(id, { signal } = {}) {
      checkId(id);
      const aborted = () =>
        new HookError("ABORTED", `waiting for approval ${id} was aborted`, {
          cause: signal?.reason,
        });
      if (signal?.aborted) throw aborted();
      await ensureListening();
      return new Promise<Approval>((resolve, reject) => {
        let settled = false;
        let checking = false;
        let again = false;
        const timers: ReturnType<typeof setTimeout>[] = [];
        const finish = (error: unknown, approval?: Approval) => {
          if (settled) return;
          settled = true;
          for (const t of timers) clearTimeout(t);
          clearInterval(poll);
          signal?.removeEventListener("abort", onAbort);
          const set = waiters.get(id);
          set?.delete(check);
          if (set?.size === 0) waiters.delete(id);
          if (error === undefined) resolve(approval as Approval);
          else reject(error);
        };
        // One read at a time; a wake during a read asks for one more, so none is lost.
        const check = () => {
          if (settled) return;
          if (checking) {
            again = true;
            return;
          }
          checking = true;
          void (async () => {
            try {
              do {
                again = false;
                const current = await read(id);
                if (current.status !== "pending") return finish(undefined, current);
                const deadline =
                  current.deadline === undefined ? undefined : Date.parse(current.deadline);
                if (deadline !== undefined && deadline <= now().getTime()) {
                  const [expired] = await expire(id);
                  if (expired !== undefined) return finish(undefined, expired);
                  again = true;
                }
              } while (again && !settled);
            } catch (error) {
              finish(error);
            } finally {
              checking = false;
            }
          })();
        };
        const onAbort = () => finish(aborted());
        signal?.addEventListener("abort", onAbort, { once: true });
        let set = waiters.get(id);
        if (set === undefined) waiters.set(id, (set = new Set()));
        set.add(check);
        const poll = setInterval(check, pollIntervalMs);
        poll.unref?.();
        // The signal may have fired while the listener was being set up.
        if (signal?.aborted) onAbort();
        else check();
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      if (unlisten !== undefined) await (await unlisten)();
      await driver.close();
    },
  };
  return store;
}
