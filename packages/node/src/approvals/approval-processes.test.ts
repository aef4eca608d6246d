import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres } from "../../../../test-support/postgres-server.ts";
import { programArgs } from "../../../../test-support/program-bundles.ts";
import type { ApprovalStore } from "./approval-store.js";
import { openApprovalStore } from "./open-approval-store.js";

// Agents in processes of their own against one PostgreSQL server: the decision reaches each by
// NOTIFY (their poll interval is an hour), and the resume is claimed once among them all.
const SLOW = 240_000;

let server: Awaited<ReturnType<typeof startPostgres>>;
let inbox: ApprovalStore;
beforeAll(async () => {
  server = await startPostgres();
  inbox = await openApprovalStore(server.url);
}, SLOW);
afterAll(async () => {
  await inbox?.close();
  await server?.stop();
}, SLOW);

interface Agent {
  child: ChildProcess;
  /** Resolves with the first line printed (the agent is waiting). */
  waiting: Promise<void>;
  /** Resolves with the agent's outcome, or undefined if it died first. */
  outcome: Promise<{ status: string; resumed: boolean; reason?: string } | undefined>;
}

function startAgent(id: string): Agent {
  const child = spawn(
    process.execPath,
    // The agent, bundled once per run (test/programs.ts).
    programArgs("approvals-agent", [server.url, id]),
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines: string[] = [];
  let onLine: (() => void) | undefined;
  let buffer = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    let at = buffer.indexOf("\n");
    while (at >= 0) {
      lines.push(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf("\n");
      onLine?.();
    }
  });
  const waiting = new Promise<void>((done, fail) => {
    onLine = () => lines.length >= 1 && done();
    child.once("exit", () => (lines.length >= 1 ? done() : fail(new Error("agent exited"))));
  });
  const outcome = new Promise<Agent["outcome"] extends Promise<infer T> ? T : never>((done) => {
    child.once("exit", () => done(lines[1] === undefined ? undefined : JSON.parse(lines[1])));
  });
  return { child, waiting, outcome };
}

describe("approvals across processes (PostgreSQL)", () => {
  it(
    "wakes two waiting agents with one decision and lets exactly one resume",
    async () => {
      const parked = await inbox.park({
        sessionId: "fleet",
        toolName: "Bash",
        toolInput: { command: "git push" },
        reason: "pushing needs a person",
      });
      const agents = [startAgent(parked.id), startAgent(parked.id)];
      await Promise.all(agents.map((a) => a.waiting));
      await inbox.decide(parked.id, { decision: "allow", by: "alice" });
      const outcomes = await Promise.all(agents.map((a) => a.outcome));
      expect(outcomes.map((o) => o?.status)).toEqual(["allowed", "allowed"]);
      expect(outcomes.filter((o) => o?.resumed)).toHaveLength(1);
      expect(outcomes.find((o) => !o?.resumed)?.reason).toBe("ALREADY_RESUMED");
    },
    SLOW,
  );

  it(
    "loses nothing when the waiting agent is killed: a new process resumes, once",
    async () => {
      const parked = await inbox.park({
        sessionId: "killed",
        toolName: "Bash",
        toolInput: { command: "git push" },
        reason: "pushing needs a person",
      });
      const first = startAgent(parked.id);
      await first.waiting;
      first.child.kill("SIGKILL");
      expect(await first.outcome).toBeUndefined();
      await inbox.decide(parked.id, { decision: "deny", by: "alice", reason: "not today" });
      const second = startAgent(parked.id);
      expect(await second.outcome).toEqual({ status: "denied", resumed: true });
      const third = startAgent(parked.id);
      expect(await third.outcome).toEqual({
        status: "denied",
        resumed: false,
        reason: "ALREADY_RESUMED",
      });
      expect((await inbox.get(parked.id)).decisionReason).toBe("not today");
    },
    SLOW,
  );
});
