import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  type Approval,
  type ApprovalStore,
  openApprovalStore,
  type ParkRequest,
} from "@a3s-lab/hooks-node/approvals";
import pg from "pg";
import { startPostgres } from "../../../test-support/postgres-server.ts";
import { BenchError } from "../bench-error.js";
import { type Goal, goals, makeRow, type PendingRow, type Row, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Profile, Suite } from "../suite.js";

const HOUR = 3_600_000;
/** How long a waiter sits idle before the decision comes, so it waits as a real agent does. */
const IDLE_MS = 20;
const DECIDER = "alice";

/** Messages in the resume context of the parked call: a realistic conversation. */
export const CONTEXT_MESSAGES = 20;

/**
 * The conversation an agent saves with a deferred call so it can resume: a user's task, then
 * the assistant's tool calls and their results, `count` messages in all.
 */
export function conversation(count = CONTEXT_MESSAGES): unknown[] {
  const messages: unknown[] = [
    {
      role: "user",
      content:
        "The release branch fails CI on the lint step. Find out why, fix it, run the tests and push the fix to origin.",
    },
  ];
  const files = ["src/index.ts", "src/engine.ts", "src/matchers.ts", "package.json", "biome.json"];
  for (let i = 1; messages.length < count; i++) {
    const file = files[i % files.length]!;
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: reading ${file} to see what the linter reports there.` },
        {
          type: "tool_use",
          id: `toolu_${String(i).padStart(4, "0")}`,
          name: i % 3 === 0 ? "Bash" : "Read",
          input: i % 3 === 0 ? { command: `npx biome check ${file}` } : { file_path: file },
        },
      ],
    });
    if (messages.length >= count) break;
    messages.push({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: `toolu_${String(i).padStart(4, "0")}`,
          content: `${file}:${10 * i}:5 lint/style/useConst: this let is never reassigned.\n${"  const value = compute(input, options); // unchanged line of the file\n".repeat(6)}`,
        },
      ],
    });
  }
  return messages;
}

/** A typical deferred call: `git push` on a release branch, with the conversation to resume. */
export function deferredCall(n: number, context: unknown[]): ParkRequest {
  return {
    sessionId: "bench-session-0001",
    toolName: "Bash",
    toolUseId: `toolu_push_${n}`,
    toolInput: {
      command: "git push origin release/2.4",
      description: "Push the lint fix to the release branch",
    },
    reason: "pushing to a release branch needs a person",
    routing: {
      deciders: [DECIDER, "bob"],
      deadline: new Date(Date.now() + HOUR),
      onDeadline: "deny",
    },
    context: { messages: context },
  };
}

/** The row a store writes for a parked call, as JSON: what the file baseline writes. */
function record(request: ParkRequest): Record<string, unknown> {
  return {
    id: randomUUID(),
    sessionId: request.sessionId,
    toolName: request.toolName,
    toolUseId: request.toolUseId,
    toolInput: request.toolInput,
    reason: request.reason,
    deciders: request.routing?.deciders ?? [],
    deadline: request.routing?.deadline,
    onDeadline: request.routing?.onDeadline ?? "deny",
    context: request.context,
    createdAt: new Date(),
    status: "pending",
  };
}

/**
 * Write the record to its own file. No fsync: PGlite does not fsync either (strace counts no
 * fsync or fdatasync over a run of INSERTs), so both sides leave the bytes with the kernel.
 */
function writeRecord(file: string, value: unknown): Promise<void> {
  return writeFile(file, JSON.stringify(value));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Like `alternate`, for operations that need an untimed setup each (a call parked and a waiter
 * started before the decision is timed): `prepare()` resolves to the operation to time.
 * Alternates call by call, rotating who goes first; a warm-up round is dropped.
 */
async function alternatePrepared(
  contenders: Readonly<Record<string, () => Promise<() => Promise<void>>>>,
  iterations: number,
  warmup = Math.max(2, Math.ceil(iterations / 20)),
): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = -warmup; i < iterations; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + (i & 1)) % names.length]!;
      const op = await contenders[name]!();
      const t = process.hrtime.bigint();
      await op();
      if (i >= 0) out[name]!.push(Number(process.hrtime.bigint() - t));
    }
  }
  return out;
}

function checkParked(approval: Approval, request: ParkRequest, where: string): void {
  if (
    approval.status !== "pending" ||
    !isDeepStrictEqual(approval.toolInput, request.toolInput) ||
    !isDeepStrictEqual(approval.context, request.context)
  ) {
    throw new BenchError("TASK_FAILED", `${where}: park() gave back something else than parked`);
  }
}

function checkResumed(decided: Approval, resumed: Approval, where: string): void {
  if (decided.status !== "allowed" || decided.decidedBy !== DECIDER) {
    throw new BenchError("TASK_FAILED", `${where}: the waiter saw ${decided.status}, not allowed`);
  }
  if (resumed.resumedAt === undefined) {
    throw new BenchError("TASK_FAILED", `${where}: claimResume() did not record the resume`);
  }
}

/** Our side of "decision → resumed": decide in `decider`, wait and claim in `agent`. */
function oursResume(
  agent: ApprovalStore,
  decider: ApprovalStore,
  request: () => ParkRequest,
  where: string,
): () => Promise<() => Promise<void>> {
  return async () => {
    const { id } = await agent.park(request());
    const waiting = agent.waitForDecision(id);
    await sleep(IDLE_MS);
    return async () => {
      const decision = decider.decide(id, { decision: "allow", by: DECIDER });
      const decided = await waiting;
      const resumed = await agent.claimResume(id);
      await decision;
      checkResumed(decided, resumed, where);
    };
  };
}

interface StoreRows {
  park: { ours: number[]; baseline: number[] };
  resume: { ours: number[]; baseline: number[] };
}

/** The embedded store in a temporary folder, against the record written to a JSON file by hand. */
async function measureEmbedded(
  work: string,
  profile: Profile,
  log: (line: string) => void,
): Promise<StoreRows> {
  const context = conversation();
  let n = 0;
  const request = () => deferredCall(n++, context);
  const files = join(work, "files");
  mkdirSync(files);
  // PGlite owns its folder in one process: the agent, the decider and the waiter share the handle.
  const opening = performance.now();
  const store = await openApprovalStore(join(work, "store"));
  log(`approvals: PGlite opened in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
  try {
    const probe = request();
    checkParked(await store.park(probe), probe, "embedded store");
    const probeRecord = record(probe);
    await writeRecord(join(files, "probe.json"), probeRecord);
    const back = JSON.parse(await readFile(join(files, "probe.json"), "utf8"));
    if (!isDeepStrictEqual(back.context, probe.context)) {
      throw new BenchError("TASK_FAILED", "file baseline: the record read back differs");
    }

    const park = await alternatePrepared(
      {
        ours: async () => {
          const r = request();
          return async () => {
            checkParked(await store.park(r), r, "embedded store");
          };
        },
        baseline: async () => {
          const r = record(request());
          return async () => {
            await writeRecord(join(files, `${r.id}.json`), r);
          };
        },
      },
      profile.approvals,
    );

    const wake = new EventEmitter();
    const resume = await alternatePrepared(
      {
        ours: oursResume(store, store, request, "embedded store"),
        baseline: async () => {
          const r = record(request());
          const file = join(files, `${r.id}.json`);
          await writeRecord(file, r);
          // The waiter: woken in-process, it writes the resume.
          const resumed = new Promise<Record<string, unknown>>((resolve) =>
            wake.once(String(r.id), resolve),
          ).then(async (decided) => {
            const done: Record<string, unknown> = { ...decided, resumedAt: new Date() };
            await writeRecord(file, done);
            return done;
          });
          await sleep(IDLE_MS);
          return async () => {
            const decided = { ...r, status: "allowed", decidedBy: DECIDER, decidedAt: new Date() };
            await writeRecord(file, decided);
            wake.emit(String(r.id), decided);
            const done = await resumed;
            if (done.status !== "allowed" || done.resumedAt === undefined) {
              throw new BenchError("TASK_FAILED", "file baseline: the resume was not written");
            }
          };
        },
      },
      profile.approvals,
    );
    return {
      park: { ours: park.ours!, baseline: park.baseline! },
      resume: { ours: resume.ours!, baseline: resume.baseline! },
    };
  } finally {
    await store.close();
  }
}

/**
 * PostgreSQL: the agent's store and the decider's store on two handles (pools) of one server,
 * against node-postgres statements written by hand on two connections, over a copy of the table.
 */
async function measurePostgres(url: string, profile: Profile): Promise<StoreRows> {
  const context = conversation();
  let n = 0;
  const request = () => deferredCall(n++, context);
  const agent = await openApprovalStore(url);
  const decider = await openApprovalStore(url);
  const rawAgent = new pg.Client({ connectionString: url });
  const rawDecider = new pg.Client({ connectionString: url });
  try {
    await rawAgent.connect();
    await rawDecider.connect();
    // The same columns, checks and indexes as the store's table (migrated by opening the store).
    await rawAgent.query(
      "CREATE TABLE IF NOT EXISTS bench_raw_approvals (LIKE a3s_approvals INCLUDING ALL)",
    );
    const insert = (r: ParkRequest, id: string) =>
      rawAgent.query(
        `INSERT INTO bench_raw_approvals (id, session_id, tool_name, tool_use_id, tool_input, reason,
           deciders, deadline, on_deadline, context, created_at, status)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb, $8, $9, $10::jsonb, $11, 'pending')`,
        [
          id,
          r.sessionId,
          r.toolName,
          r.toolUseId ?? null,
          JSON.stringify(r.toolInput),
          r.reason,
          JSON.stringify(r.routing?.deciders ?? []),
          r.routing?.deadline ?? null,
          r.routing?.onDeadline ?? "deny",
          JSON.stringify(r.context),
          new Date(),
        ],
      );

    const probe = request();
    checkParked(await agent.park(probe), probe, "PostgreSQL store");
    const probeId = randomUUID();
    await insert(probe, probeId);
    const back = await rawDecider.query("SELECT context FROM bench_raw_approvals WHERE id = $1", [
      probeId,
    ]);
    if (!isDeepStrictEqual(back.rows[0]?.context, probe.context)) {
      throw new BenchError("TASK_FAILED", "node-postgres baseline: the row read back differs");
    }

    const park = await alternatePrepared(
      {
        ours: async () => {
          const r = request();
          return async () => {
            checkParked(await agent.park(r), r, "PostgreSQL store");
          };
        },
        baseline: async () => {
          const r = request();
          const id = randomUUID();
          return async () => {
            const result = await insert(r, id);
            if (result.rowCount !== 1) {
              throw new BenchError(
                "TASK_FAILED",
                "node-postgres baseline: the INSERT wrote no row",
              );
            }
          };
        },
      },
      profile.approvals,
    );

    // The hand-written waiter: LISTEN on its own connection, claim with one conditional UPDATE.
    const wakes = new EventEmitter();
    rawAgent.on("notification", (m) => {
      if (m.channel === "bench_raw_approvals") wakes.emit(m.payload ?? "");
    });
    await rawAgent.query("LISTEN bench_raw_approvals");
    const resume = await alternatePrepared(
      {
        ours: oursResume(agent, decider, request, "PostgreSQL store"),
        baseline: async () => {
          const id = randomUUID();
          await insert(request(), id);
          const resumed = new Promise<void>((resolve) => wakes.once(id, () => resolve())).then(() =>
            rawAgent.query(
              `UPDATE bench_raw_approvals SET resumed_at = now()
                  WHERE id = $1 AND status <> 'pending' AND resumed_at IS NULL RETURNING *`,
              [id],
            ),
          );
          await sleep(IDLE_MS);
          return async () => {
            await rawDecider.query(
              `WITH done AS (
                 UPDATE bench_raw_approvals SET status = 'allowed', decided_by = $2, decided_at = now()
                  WHERE id = $1 AND status = 'pending' RETURNING id)
               SELECT pg_notify('bench_raw_approvals', done.id) FROM done`,
              [id, DECIDER],
            );
            const done = await resumed;
            if (done.rows[0]?.status !== "allowed" || done.rows[0]?.resumed_at == null) {
              throw new BenchError(
                "TASK_FAILED",
                "node-postgres baseline: the resume was not written",
              );
            }
          };
        },
      },
      profile.approvals,
    );
    return {
      park: { ours: park.ours!, baseline: park.baseline! },
      resume: { ours: resume.ours!, baseline: resume.baseline! },
    };
  } finally {
    await rawAgent.end().catch(() => {});
    await rawDecider.end().catch(() => {});
    await agent.close();
    await decider.close();
  }
}

/**
 * Absolute goals, as the CLI's start has: what a user notices. Parking adds to the agent's turn
 * (10 ms is nothing next to a model's answer); a decision should reach the waiting agent before
 * the person who clicked could notice a pause (100 ms).
 */
export const PARK_GOAL_NS = 10e6;
export const RESUME_GOAL_NS = 100e6;
const parkGoal = goals.medianBelow(PARK_GOAL_NS, "< 10 ms");
const resumeGoal = goals.medianBelow(RESUME_GOAL_NS, "< 100 ms");
const GOALS = {
  parkEmbedded: parkGoal,
  resumeEmbedded: resumeGoal,
  parkPostgres: parkGoal,
  resumePostgres: resumeGoal,
} satisfies Record<string, Goal>;

const WHAT = {
  parkEmbedded: "defer → parked, embedded store (PGlite)",
  resumeEmbedded: "decision → resumed, embedded store (PGlite)",
  parkPostgres: "defer → parked, PostgreSQL",
  resumePostgres: "decision → resumed, PostgreSQL (LISTEN/NOTIFY, two connections)",
} as const;

/**
 * The PostgreSQL rows as pending, when `startPostgres()` failed because PostgreSQL is not
 * installed; `undefined` for any other failure, which must fail the run instead.
 */
export function postgresMissing(error: unknown): PendingRow[] | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (!message.startsWith("PostgreSQL is not installed")) return undefined;
  return (["parkPostgres", "resumePostgres"] as const).map((key) => ({
    id: key === "parkPostgres" ? "approvals.park.postgres" : "approvals.resume.postgres",
    what: WHAT[key],
    goal: GOALS[key].text,
    reason:
      "PostgreSQL is not installed on this machine (no `pg_ctl` under /usr/lib/postgresql): `apt-get install -y postgresql`",
  }));
}

/**
 * Approvals that wait: parking a deferred call (`store.park()` until it is written) and a
 * decision reaching a waiting agent (`decide()` until `waitForDecision()` resolves and
 * `claimResume()` succeeds), in the embedded store and in PostgreSQL, each against the least
 * the same storage can do by hand.
 */
export const approvalsSuite: Suite = {
  id: "approvals",
  title: "approvals that wait",
  async run({ profile, log }) {
    const rows: Row[] = [];
    const pending: PendingRow[] = [];
    const contextBytes = Buffer.byteLength(JSON.stringify({ messages: conversation() }));
    const size = `${CONTEXT_MESSAGES} messages, ${(contextBytes / 1024).toFixed(1)} KB`;
    const work = mkdtempSync(join(tmpdir(), "a3s-bench-approvals-"));
    try {
      const started = performance.now();
      log(`approvals: embedded store, ${profile.approvals} of each`);
      const embedded = await measureEmbedded(work, profile, log);
      log(
        `approvals: embedded store done in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      rows.push(
        makeRow({
          id: "approvals.park.pglite",
          what: WHAT.parkEmbedded,
          ours: side("`store.park()`, PGlite in a folder", summarize(embedded.park.ours)),
          baseline: side(
            "`JSON.stringify` + `writeFile` of the record",
            summarize(embedded.park.baseline),
          ),
          goal: GOALS.parkEmbedded,
          smoke: profile.smoke,
          note: `A deferred Bash call with its resume context (${size}).`,
        }),
        makeRow({
          id: "approvals.resume.pglite",
          what: WHAT.resumeEmbedded,
          ours: side(
            "`decide()` → `waitForDecision()` → `claimResume()`, one handle",
            summarize(embedded.resume.ours),
          ),
          baseline: side(
            "decision written, in-process wake, resume written (files)",
            summarize(embedded.resume.baseline),
          ),
          goal: GOALS.resumeEmbedded,
          smoke: profile.smoke,
          note: `The waiter sat idle ${IDLE_MS} ms before each decision; PGlite is one process's, so its own NOTIFY wakes it.`,
        }),
      );

      const t = performance.now();
      log("approvals: starting a PostgreSQL server");
      let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
      try {
        server = await startPostgres();
        log(`approvals: PostgreSQL up in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      } catch (error) {
        const missing = postgresMissing(error);
        if (missing === undefined) throw error;
        pending.push(...missing);
        log(`approvals: ${missing[0]!.reason}`);
      }
      if (server !== undefined) {
        try {
          const measured = await measurePostgres(server.url, profile);
          rows.push(
            makeRow({
              id: "approvals.park.postgres",
              what: WHAT.parkPostgres,
              ours: side("`store.park()`, node-postgres pool", summarize(measured.park.ours)),
              baseline: side(
                "one `INSERT` of the same row, node-postgres",
                summarize(measured.park.baseline),
              ),
              goal: GOALS.parkPostgres,
              smoke: profile.smoke,
              note: `The same call and context (${size}); a throwaway local server (\`fsync=off\`), over TCP on 127.0.0.1.`,
            }),
            makeRow({
              id: "approvals.resume.postgres",
              what: WHAT.resumePostgres,
              ours: side(
                "`decide()` in one store → `waitForDecision()` + `claimResume()` in another",
                summarize(measured.resume.ours),
              ),
              baseline: side(
                "`UPDATE … pg_notify` → LISTEN → conditional `UPDATE`, node-postgres",
                summarize(measured.resume.baseline),
              ),
              goal: GOALS.resumePostgres,
              smoke: profile.smoke,
            }),
          );
        } finally {
          await server.stop();
        }
      }
      return { rows, pending };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
