import { execFile } from "node:child_process";
import { constants, existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, open, readFile, realpath, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  type Approval,
  type ApprovalStore,
  openApprovalStore,
} from "@a3s-lab/hooks-node/approvals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedEmbeddedStore } from "../../../test-support/embedded-store.ts";
import { startPostgres } from "../../../test-support/postgres-server.ts";
import { APP_DIR, type CliRun, LineWaiter, runCli, startCli } from "./cli-process.js";

// kill -9 at each step of the approval journey, in real processes, on both stores. Every kill is
// timed by an event: a hook or the tool writes a marker file and blocks reading a FIFO, the
// embedded store's lock file appears, or (PostgreSQL) a test trigger holds the agent's statement
// on an advisory lock the test owns. Then the store and the side-effect files must show that no
// approval was lost and no call ran twice, and a later `resume` must say what happened.
const SLOW = 600_000;
const DEFER_PUSH = `input=$(cat); case "$input" in *"git push"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"pushing needs a person"}}';; esac`;
/** The advisory lock the PostgreSQL trigger waits on for rows whose input says `hold-me`. */
const HOLD_KEY = 4242;

const root = mkdtempSync(path.join(os.tmpdir(), "demo-approvals-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Resolve once `check` is true; it is asked again every 100 ms (a condition, not a delay). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 240_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Unblock a reader of `fifo` if one still waits (a killed agent's orphaned hook or tool). */
async function release(fifo: string): Promise<boolean> {
  try {
    const handle = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    await handle.write("go\n");
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENXIO") return false; // nobody reads it
    throw error;
  }
}

interface Journey {
  dir: string;
  home: string;
  settings: string;
  workdir: string;
  /** Present: the resume's SessionStart hook (after the claim) marks `claimed` and blocks. */
  hold: string;
  go: string;
}

async function journey(name: string): Promise<Journey> {
  const dir = await realpath(await mkdtemp(path.join(root, `${name}-`)));
  const home = path.join(dir, "home");
  await mkdir(home);
  const go = path.join(dir, "go");
  await promisify(execFile)("mkfifo", [go]);
  const hold = path.join(dir, "hold");
  const holdAtStart = `if [ -e '${hold}' ]; then : > '${dir}/claimed'; read x < '${go}'; fi`;
  const settings = path.join(dir, "settings.json");
  await writeFile(
    settings,
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: holdAtStart }] }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: DEFER_PUSH }] }],
      },
    }),
  );
  return { dir, home, settings, hold, go, workdir: path.join(dir, "work") };
}

const pushes = (j: Journey) =>
  readFile(path.join(j.workdir, "pushed.txt"), "utf8").then(
    (text) => text.split("\n").filter((line) => line === "pushed").length,
    () => 0,
  );

function startRun(j: Journey, store: string, command: string) {
  return startCli(
    ["run", "--workdir", j.workdir, "--settings", j.settings, "--store", store, "--prompt"].concat(
      `bash: ${command}`,
    ),
    { env: { HOME: j.home } },
  );
}

function resume(j: Journey, sessionId: string, store: string): Promise<CliRun> {
  return runCli(["resume", sessionId, "--settings", j.settings, "--store", store, "--no-color"], {
    env: { HOME: j.home },
  });
}

function startResume(j: Journey, sessionId: string, store: string, extra: string[] = []) {
  return startCli(
    ["resume", sessionId, "--settings", j.settings, "--store", store, "--no-color", ...extra],
    { env: { HOME: j.home } },
  );
}

/** The command with the journey's name after it: the test finds its approval by it. */
const unique = (j: Journey, command: string) => `${command}; : ${path.basename(j.dir)}`;

const a3sHooks = (args: readonly string[]) => runCli(args, { program: "a3s-hooks" });

/** SIGKILL a child and wait until it is gone. */
async function kill9(child: ReturnType<typeof startCli>): Promise<void> {
  const gone = new Promise<void>((done) => child.once("close", () => done()));
  child.kill("SIGKILL");
  await gone;
}

/** The little of node-postgres's client this file uses (the package is the store's, not ours). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: { n: number }[] }>;
  end(): Promise<void>;
}

interface Kind {
  name: string;
  setup(): Promise<string>;
  teardown(): Promise<void>;
  /**
   * Resolves once an agent or decider process is inside its store write for a row whose input
   * says `hold-me` (PostgreSQL: held by the trigger) or has the embedded store open (its lock
   * file). `done` lets a held statement go on.
   */
  hold(): Promise<{ inside(): Promise<void>; done(): Promise<void> }>;
}

const embeddedStore = path.join(root, "embedded-store");

const kinds: Kind[] = [
  {
    name: "embedded",
    setup: async () => {
      // Created before the kills, so a kill lands in a write, not in creating the database (a
      // prepared empty store: the first open of a new folder is approvals.e2e.test.ts's).
      return preparedEmbeddedStore(embeddedStore);
    },
    teardown: async () => {},
    hold: async () => ({
      inside: () =>
        until("the embedded store's lock file", () => existsSync(`${embeddedStore}.lock`)),
      done: async () => {},
    }),
  },
  (() => {
    let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
    const pgModule = createRequire(
      path.resolve(APP_DIR, "../../packages/node/package.json"),
    ).resolve("pg");
    const client = async () => {
      const { default: pg } = (await import(pathToFileURL(pgModule).href)) as {
        default: { Client: new (options: { connectionString: string }) => PgClient };
      };
      const c = new pg.Client({ connectionString: server?.url ?? "" });
      await c.connect();
      return c;
    };
    return {
      name: "PostgreSQL",
      setup: async () => {
        server = await startPostgres();
        await (await openApprovalStore(server.url)).close();
        const c = await client();
        await c.query(`CREATE FUNCTION a3s_test_hold() RETURNS trigger AS $$
          BEGIN
            IF NEW.tool_input::text LIKE '%hold-me%' THEN PERFORM pg_advisory_xact_lock(${HOLD_KEY}); END IF;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`);
        await c.query(
          "CREATE TRIGGER a3s_test_hold BEFORE INSERT OR UPDATE ON a3s_approvals FOR EACH ROW EXECUTE FUNCTION a3s_test_hold()",
        );
        await c.end();
        return server.url;
      },
      teardown: async () => server?.stop(),
      hold: async () => {
        const c = await client();
        await c.query("SELECT pg_advisory_lock($1)", [HOLD_KEY]);
        return {
          inside: () =>
            until("a statement waiting on the test's advisory lock", async () => {
              const rows = await c.query(
                "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
              );
              return (rows.rows[0]?.n ?? 0) > 0;
            }),
          done: async () => {
            await c.query("SELECT pg_advisory_unlock($1)", [HOLD_KEY]);
            // The held statement goes on (its client is gone) and ends. Its transaction holds the
            // trigger's lock, once granted, until it commits: no advisory lock left, granted or
            // not, means it has (a lock granted but not yet let go of is a write not yet seen).
            await until("the held statement to end", async () => {
              const rows = await c.query(
                "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'",
              );
              return rows.rows[0]?.n === 0;
            });
            await c.end();
          },
        };
      },
    };
  })(),
];

describe.each(kinds)("kill -9 during an approval ($name store)", (kind) => {
  let store = "";
  beforeAll(async () => {
    store = await kind.setup();
  }, SLOW);
  afterAll(() => kind.teardown(), SLOW);

  /** Open the store for one look (the embedded one is one process at a time). */
  async function look<T>(fn: (s: ApprovalStore) => Promise<T>): Promise<T> {
    const s = await openApprovalStore(store);
    try {
      return await fn(s);
    } finally {
      await s.close();
    }
  }
  const byCommand = (command: string) =>
    look(async (s) =>
      (await s.list({ limit: 1000 })).filter(
        (a) => (a.toolInput as { command?: string }).command === command,
      ),
    );

  /** `run` parks the push and exits; returns the approval. */
  async function park(j: Journey, given: string): Promise<Approval> {
    const command = unique(j, given);
    const run = startRun(j, store, command);
    const out = new LineWaiter(run.stdout!);
    run.stdin?.end();
    const code = await new Promise<number | null>((done) => run.on("close", done));
    expect(code, out.lines.join("\n")).toBe(0);
    const [approval] = await byCommand(command);
    expect(approval?.status).toBe("pending");
    return approval as Approval;
  }

  it(
    "killed while parking: the call never runs; an approval the agent wrote is in the store and resumes once",
    async () => {
      const j = await journey("parking");
      const command = unique(j, "echo pushed >> pushed.txt; : hold-me git push origin main");
      const held = await kind.hold();
      const run = startRun(j, store, command);
      run.stdin?.end();
      const out = new LineWaiter(run.stdout!);
      await held.inside();
      await kill9(run);
      await held.done();
      // It never said the call waits, and the call did not run.
      expect(out.lines.join("\n")).not.toContain("waiting for approval");
      expect(await pushes(j)).toBe(0);
      const parked = await byCommand(command);
      // The write either happened whole (the approval waits in the inbox) or not at all.
      expect(parked.length).toBeLessThanOrEqual(1);
      if (kind.name === "PostgreSQL") expect(parked).toHaveLength(1);
      const approval = parked[0];
      if (approval === undefined) return;
      expect(approval).toMatchObject({ status: "pending", toolName: "Bash" });
      expect(approval.resumedAt).toBeUndefined();
      const approved = await a3sHooks([
        "approvals",
        "approve",
        approval.id,
        "--by",
        "alice",
        "--store",
        store,
      ]);
      expect(approved.code).toBe(0);
      const resumed = await resume(j, approval.sessionId, store);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`▶ resuming approval ${approval.id}`);
      expect(await pushes(j)).toBe(1);
    },
    SLOW,
  );

  it(
    "a decider killed mid-decision: the approval is whole (pending, or decided by them); a second decider is told or decides",
    async () => {
      const j = await journey("decider");
      const approval = await park(j, "echo pushed >> pushed.txt; : hold-me git push origin main");
      const held = await kind.hold();
      const decider = startCli(
        ["approvals", "approve", approval.id, "--by", "mallory", "--store", store],
        { program: "a3s-hooks" },
      );
      decider.stdin?.end();
      await held.inside();
      await kill9(decider);
      await held.done();
      const after = await look((s) => s.get(approval.id));
      expect(["pending", "allowed"]).toContain(after.status);
      if (after.status === "allowed") expect(after.decidedBy).toBe("mallory");
      else expect(after.decidedBy).toBeUndefined();
      const second = await a3sHooks([
        "approvals",
        "deny",
        approval.id,
        "--by",
        "bob",
        "--store",
        store,
      ]);
      if (after.status === "pending") expect(second.code).toBe(0);
      else expect(second.stderr).toContain("already decided");
      const final = await look((s) => s.get(approval.id));
      expect(final.decidedBy).toBe(after.status === "pending" ? "bob" : "mallory");
      expect(await pushes(j)).toBe(0);
    },
    SLOW,
  );

  it(
    "killed after the decision, before the resume's claim: a later resume runs the call once",
    async () => {
      const j = await journey("before-claim");
      const approval = await park(j, "echo pushed >> pushed.txt; : git push origin main");
      let child: ReturnType<typeof startCli>;
      if (kind.name === "PostgreSQL") {
        // Waiting for the decision, so not claimed: killed there, then the decision comes.
        child = startResume(j, approval.sessionId, store, ["--wait"]);
        child.stdin?.end();
        await new LineWaiter(child.stdout!).next(/waiting for a decision on approval/);
        await kill9(child);
        expect(
          (await a3sHooks(["approvals", "approve", approval.id, "--by", "alice", "--store", store]))
            .code,
        ).toBe(0);
      } else {
        expect(
          (await a3sHooks(["approvals", "approve", approval.id, "--by", "alice", "--store", store]))
            .code,
        ).toBe(0);
        // Killed as soon as it has the store open: before it claims, as a rule.
        const held = await kind.hold();
        child = startResume(j, approval.sessionId, store);
        child.stdin?.end();
        await held.inside();
        await kill9(child);
      }
      const between = await look((s) => s.get(approval.id));
      expect(between.status).toBe("allowed");
      expect(await pushes(j)).toBe(0);
      const later = await resume(j, approval.sessionId, store);
      expect(later.stderr).toBe("");
      expect(later.code).toBe(0);
      if (between.resumedAt === undefined) {
        expect(later.stdout).toContain(`▶ resuming approval ${approval.id}`);
        expect(await pushes(j)).toBe(1);
      } else {
        // The kill came after the claim after all: reported, never run.
        expect(later.stdout).toContain(`not resumed again: approval ${approval.id}`);
        expect(await pushes(j)).toBe(0);
      }
      const again = await resume(j, approval.sessionId, store);
      expect(again.stdout).not.toContain("▶ resuming");
      expect(await pushes(j)).toBeLessThanOrEqual(1);
    },
    SLOW,
  );

  it(
    "killed after the resume's claim, before the tool runs: the call never runs, and resume reports the claim that never finished",
    async () => {
      const j = await journey("after-claim");
      const approval = await park(j, "echo pushed >> pushed.txt; : git push origin main");
      await a3sHooks(["approvals", "approve", approval.id, "--by", "alice", "--store", store]);
      await writeFile(j.hold, "");
      const child = startResume(j, approval.sessionId, store);
      child.stdin?.end();
      await until("the resume's SessionStart hook", () => existsSync(path.join(j.dir, "claimed")));
      await kill9(child);
      await release(j.go);
      rmSync(j.hold);
      const after = await look((s) => s.get(approval.id));
      expect(after.resumedAt).toBeDefined();
      expect(after.completedAt).toBeUndefined();
      expect(await pushes(j)).toBe(0);
      const later = await resume(j, approval.sessionId, store);
      expect(later.stderr).toBe("");
      expect(later.code).toBe(0);
      expect(later.stdout).toContain(
        `not resumed again: approval ${approval.id} (Bash, allowed by alice) was claimed at ${after.resumedAt} and never finished`,
      );
      expect(later.stdout).not.toContain("▶ resuming");
      expect(await pushes(j)).toBe(0);
    },
    SLOW,
  );

  it(
    "killed while the tool runs: the call is not run again; resume reports the claim that never finished",
    async () => {
      const j = await journey("tool-runs");
      const running = path.join(j.dir, "running");
      const ran = path.join(j.dir, "ran");
      const command = `: > '${running}'; read x < '${j.go}'; echo pushed >> pushed.txt; : > '${ran}'; : git push origin main`;
      const approval = await park(j, command);
      await a3sHooks(["approvals", "approve", approval.id, "--by", "alice", "--store", store]);
      const child = startResume(j, approval.sessionId, store);
      child.stdin?.end();
      await until("the tool to start", () => existsSync(running));
      await kill9(child);
      // The tool's own process outlives the agent; let it finish what it started.
      if (await release(j.go)) await until("the orphaned tool to finish", () => existsSync(ran));
      const after = await look((s) => s.get(approval.id));
      expect(after.resumedAt).toBeDefined();
      expect(after.completedAt).toBeUndefined();
      const before = await pushes(j);
      expect(before).toBeLessThanOrEqual(1);
      const later = await resume(j, approval.sessionId, store);
      expect(later.code).toBe(0);
      expect(later.stdout).toContain(`not resumed again: approval ${approval.id}`);
      expect(later.stdout).toContain("never finished");
      expect(await pushes(j)).toBe(before);
    },
    SLOW,
  );
});
