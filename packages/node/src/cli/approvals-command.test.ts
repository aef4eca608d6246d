import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedEmbeddedStore } from "../../../../test-support/embedded-store.ts";
import { startPostgres } from "../../../../test-support/postgres-server.ts";
import { programArgs } from "../../../../test-support/program-bundles.ts";
import type { Approval } from "../approvals/approval.js";
import { openApprovalStore } from "../approvals/open-approval-store.js";

// The real CLI from source, bundled once per run (test/programs.ts), in real processes. The
// databases stay outside the bundle (PGlite loads its WebAssembly beside its module); the bundle
// sits in this package, where they resolve.
const packageDir = resolve(import.meta.dirname, "../..");
// Each run of the embedded store opens PGlite (seconds on a loaded machine).
const SLOW = 300_000;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, programArgs("a3s-hooks", args), {
      cwd: packageDir,
      env: { ...process.env, USER: "tester" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

interface Kind {
  name: string;
  setup(): Promise<string>;
  teardown(): Promise<void>;
}

const kinds: Kind[] = [
  (() => {
    const dir = mkdtempSync(join(tmpdir(), "a3s-approvals-cli-"));
    return {
      name: "embedded",
      // The store's first open (initdb, migrations) is approval-store.test.ts's: here the
      // agent's store is a copy of one opened once.
      setup: () => preparedEmbeddedStore(join(dir, "store")),
      teardown: async () => rmSync(dir, { recursive: true, force: true }),
    };
  })(),
  (() => {
    let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
    return {
      name: "PostgreSQL",
      setup: async () => {
        server = await startPostgres();
        return server.url;
      },
      teardown: async () => server?.stop(),
    };
  })(),
];

describe.each(kinds)("a3s-hooks approvals ($name store)", (kind) => {
  let location = "";
  let push: Approval;
  let deploy: Approval;
  beforeAll(async () => {
    location = await kind.setup();
    // The agent parks its calls and goes away (the embedded store has one owner at a time).
    const store = await openApprovalStore(location);
    push = await store.park({
      sessionId: "agent-1",
      toolName: "Bash",
      toolInput: { command: "git push" },
      reason: "pushing needs a person",
      routing: { deciders: ["alice"] },
    });
    deploy = await store.park({
      sessionId: "agent-2",
      toolName: "Bash",
      toolInput: { command: "./deploy.sh" },
      reason: "deploys need a person",
    });
    await store.close();
  }, SLOW);
  afterAll(() => kind.teardown(), SLOW);

  it(
    "lists, shows, approves with an edited input, denies, and tells a second decider",
    async () => {
      const store = ["--store", location];
      const listed = await cli(["approvals", "list", ...store]);
      expect(listed.stderr).toBe("");
      expect(listed.code).toBe(0);
      expect(listed.stdout).toBe(
        `${push.id}  pending  agent-1  Bash  pushing needs a person\n${deploy.id}  pending  agent-2  Bash  deploys need a person\n`,
      );

      const shown = await cli(["approvals", "show", push.id, ...store]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('input:           {"command":"git push"}\n');
      expect(shown.stdout).toContain("deciders:        alice\n");

      const refused = await cli(["approvals", "approve", push.id, ...store]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('decision.by: "tester" may not decide');

      const approved = await cli([
        "approvals",
        "approve",
        push.id,
        "--by",
        "alice",
        "--input",
        '{"command":"git push --dry-run"}',
        ...store,
      ]);
      expect(approved.stderr).toBe("");
      expect(approved.stdout).toBe(
        `Approved: ${push.id}  allowed by alice  agent-1  Bash  pushing needs a person\n`,
      );

      const again = await cli(["approvals", "deny", push.id, "--by", "alice", ...store]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("already decided (allowed by alice)");

      const denied = await cli(["approvals", "deny", deploy.id, "--reason", "not today", ...store]);
      expect(denied.code).toBe(0);
      expect(denied.stdout).toContain("denied by tester");

      const all = await cli(["approvals", "list", "--all", "--json", ...store]);
      const rows = JSON.parse(all.stdout) as Approval[];
      expect(rows.map((r) => [r.id, r.status, r.decidedBy])).toEqual([
        [push.id, "allowed", "alice"],
        [deploy.id, "denied", "tester"],
      ]);
      expect(rows[0]?.editedInput).toEqual({ command: "git push --dry-run" });
      expect(rows[1]?.decisionReason).toBe("not today");
      expect((await cli(["approvals", "list", ...store])).stdout).toBe("No pending approvals.\n");

      const bad = await cli(["approvals", "show", "../../etc/passwd", ...store]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('id: "../../etc/passwd" is not an approval id');
    },
    SLOW,
  );
});
