import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AuditEvent } from "@a3s-lab/hooks-core";
import { afterAll, describe, expect, it } from "vitest";
import { preparedEmbeddedStore } from "../../../test-support/embedded-store.ts";
import { type CliRun, readJsonl, runCli } from "./cli-process.js";

// A deferred call's approval in the agent's audit log (`--audit FILE`), in real processes on the
// embedded store: `run` parks it with the hook's routing, the real `a3s-hooks approvals` CLI
// decides, `resume` claims the decision in a new process. Each process opens PGlite (seconds on
// a loaded machine). Each journey's store starts as a prepared empty one: what a first open of a
// new folder does is approvals.e2e.test.ts's to show, not the audit's.
const SLOW = 300_000;

/** Defers anything that pushes, routed to alice or bob, for 30 minutes. */
const DEFER_PUSH = `input=$(cat); case "$input" in *"git push"*) printf '%s' '${JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "defer",
    permissionDecisionReason: "pushing needs a person",
    a3sRouting: { deciders: ["alice", "bob"], deadline: "30m" },
  },
})}';; esac`;

const PUSH_PROMPT = "bash: echo pushed >> pushed.txt; : git push origin main";

const root = mkdtempSync(path.join(os.tmpdir(), "demo-approvals-audit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function a3sHooks(args: readonly string[]): Promise<CliRun> {
  return runCli(args, { program: "a3s-hooks" });
}

async function journey(name: string) {
  const dir = await realpath(await mkdtemp(path.join(root, `${name}-`)));
  const home = path.join(dir, "home");
  await mkdir(home);
  const settings = path.join(dir, "settings.json");
  await writeFile(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: DEFER_PUSH }] }],
      },
    }),
  );
  return {
    home,
    settings,
    workdir: path.join(dir, "work"),
    store: await preparedEmbeddedStore(path.join(dir, "store")),
    parkAudit: path.join(dir, "park-audit.jsonl"),
    resumeAudit: path.join(dir, "resume-audit.jsonl"),
  };
}

type Journey = Awaited<ReturnType<typeof journey>>;

const approvals = (file: string) =>
  readJsonl<AuditEvent>(file).filter(
    (r): r is Extract<AuditEvent, { type: "approval" }> => r.type === "approval",
  );

async function park(j: Journey) {
  const run = await runCli(
    [
      "run",
      "--workdir",
      j.workdir,
      "--settings",
      j.settings,
      "--store",
      j.store,
      "--audit",
      j.parkAudit,
      "--prompt",
      PUSH_PROMPT,
    ],
    { env: { HOME: j.home } },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const approvalId = /waiting for approval ([0-9a-f-]{36})/.exec(run.stdout)?.[1] as string;
  const sessionId = /a3s-demo-agent resume (\S+)/.exec(run.stdout)?.[1] as string;
  expect(approvalId).toBeDefined();
  return { approvalId, sessionId };
}

function resume(j: Journey, sessionId: string) {
  return runCli(
    [
      "resume",
      sessionId,
      "--settings",
      j.settings,
      "--store",
      j.store,
      "--audit",
      j.resumeAudit,
      "--no-color",
    ],
    { env: { HOME: j.home } },
  );
}

describe("the audit trail of a deferred call (embedded store, real processes)", () => {
  it(
    "records the park with its routing, who decided with an edited input, and that the call ran",
    async () => {
      const j = await journey("allow");
      const before = Date.now();
      const { approvalId, sessionId } = await park(j);
      const parked = approvals(j.parkAudit);
      expect(parked).toHaveLength(1);
      expect(parked[0]).toMatchObject({
        type: "approval",
        step: "parked",
        approvalId,
        sessionId,
        tool: "Bash",
        reason: "pushing needs a person",
        deciders: ["alice", "bob"],
        onDeadline: "deny",
      });
      // 30 minutes from the park, which happened during the run.
      const deadline = Date.parse((parked[0] as { deadline: string }).deadline);
      expect(deadline).toBeGreaterThanOrEqual(before + 30 * 60_000);
      expect(deadline).toBeLessThanOrEqual(Date.now() + 30 * 60_000);

      const edited = JSON.stringify({ command: "echo pushed >> pushed.txt; : git push --dry-run" });
      const approved = await a3sHooks([
        "approvals",
        "approve",
        approvalId,
        "--by",
        "bob",
        "--reason",
        "release day",
        "--input",
        edited,
        "--store",
        j.store,
      ]);
      expect(approved.stderr).toBe("");
      expect(approved.code).toBe(0);

      const resumed = await resume(j, sessionId);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      const steps = approvals(j.resumeAudit);
      expect(steps.map((r) => r.step)).toEqual(["decided", "resumed"]);
      expect(steps[0]).toMatchObject({
        approvalId,
        sessionId,
        tool: "Bash",
        decision: "allow",
        decidedBy: "bob",
        reason: "release day",
        edited: true,
      });
      expect(steps[1]).toMatchObject({
        approvalId,
        decision: "allow",
        decidedBy: "bob",
        outcome: "ran",
      });
    },
    SLOW,
  );

  it(
    "records a denial with who denied it, and that the call did not run",
    async () => {
      const j = await journey("deny");
      const { approvalId, sessionId } = await park(j);
      const denied = await a3sHooks([
        "approvals",
        "deny",
        approvalId,
        "--by",
        "alice",
        "--reason",
        "not on a Friday",
        "--store",
        j.store,
      ]);
      expect(denied.code).toBe(0);
      const resumed = await resume(j, sessionId);
      expect(resumed.code).toBe(0);
      expect(approvals(j.resumeAudit)).toEqual([
        expect.objectContaining({
          step: "decided",
          decision: "deny",
          decidedBy: "alice",
          reason: "not on a Friday",
          edited: false,
        }),
        expect.objectContaining({ step: "resumed", decidedBy: "alice", outcome: "denied" }),
      ]);
    },
    SLOW,
  );
});
