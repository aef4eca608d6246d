import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openApprovalStore } from "@a3s-lab/hooks-node/approvals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test-support/chromium.ts";
import { startPostgres } from "../../../test-support/postgres-server.ts";
import type { EventLogRecord } from "../src/event-log.js";
import type { ParkedContext } from "../src/parked-call.js";
import { type CliRun, LineWaiter, readJsonl, runCli, startCli } from "./cli-process.js";

// The approval journey in real processes: `run` parks the call a real bash hook defers and
// exits; the real `a3s-hooks approvals` CLI decides; `resume` in a new process finishes the
// turn. Each process on the embedded store opens PGlite (seconds on a loaded machine), so each
// journey uses as few processes as it can.
const SLOW = 300_000;
const INBOX_TOKEN = "demo-inbox-token-0123456789";

/** The PreToolUse hook: a bash command that defers anything that pushes. */
const DEFER_PUSH = `input=$(cat); case "$input" in *"git push"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"pushing needs a person"}}';; esac`;

/** Harmless: it appends a line to pushed.txt; the `git push` after `:` only reads as one. */
const PUSH_PROMPT = "bash: echo pushed >> pushed.txt; : git push origin main";

const root = mkdtempSync(path.join(os.tmpdir(), "demo-approvals-e2e-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One Chromium for the file's inbox tests (each opens a page of its own), started on first use. */
let chromium: ReturnType<typeof launchChromium> | undefined;
const browser = () => {
  chromium ??= launchChromium();
  return chromium;
};
afterAll(async () => (await chromium)?.close());

/** The real `a3s-hooks` CLI, from source. */
function a3sHooks(args: readonly string[]): Promise<CliRun> {
  return runCli(args, { program: "a3s-hooks" });
}

interface Kind {
  name: string;
  setup(): Promise<string>;
  teardown(): Promise<void>;
}

const kinds: Kind[] = [
  {
    name: "embedded",
    setup: async () => path.join(root, "embedded-store"),
    teardown: async () => {},
  },
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

/** A fresh folder for one journey: the agent's workdir, the settings file, an empty home. */
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
  const workdir = path.join(dir, "work");
  return { dir, home, settings, workdir, events: path.join(dir, "events.jsonl") };
}

type Journey = Awaited<ReturnType<typeof journey>>;

/** `run` the push prompt; it parks the call and exits 0. Returns the ids it printed. */
async function parkPush(j: Journey, store: string) {
  const run = await runCli(
    [
      "run",
      "--workdir",
      j.workdir,
      "--settings",
      j.settings,
      "--store",
      store,
      "--prompt",
      PUSH_PROMPT,
    ],
    { env: { HOME: j.home } },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const approvalId = /waiting for approval ([0-9a-f-]{36}): Bash \(pushing needs a person\)/.exec(
    run.stdout,
  )?.[1];
  const sessionId = /a3s-demo-agent resume (\S+)/.exec(run.stdout)?.[1];
  expect(approvalId).toBeDefined();
  expect(sessionId).toBeDefined();
  expect(run.stdout).toContain(`a3s-hooks approvals approve ${approvalId}`);
  return { run, approvalId: approvalId as string, sessionId: sessionId as string };
}

function resume(j: Journey, sessionId: string, store: string, extra: string[] = []) {
  return runCli(
    ["resume", sessionId, "--settings", j.settings, "--store", store, "--no-color", ...extra],
    { env: { HOME: j.home } },
  );
}

const pushes = (j: Journey) =>
  readFile(path.join(j.workdir, "pushed.txt"), "utf8").then(
    (text) => text.split("\n").filter((line) => line === "pushed").length,
    () => 0,
  );

const fired = (file: string, type: string) =>
  readJsonl<EventLogRecord>(file).filter((r) => r.event.eventType === type);

describe.each(kinds)("a3s-demo-agent parks deferred calls ($name store)", (kind) => {
  let store = "";
  beforeAll(async () => {
    store = await kind.setup();
  }, SLOW);
  afterAll(() => kind.teardown(), SLOW);

  it(
    "run parks and exits; a person approves; resume runs the call once, and only once",
    async () => {
      const j = await journey("allow");
      const { approvalId, sessionId } = await parkPush(j, store);
      // Parked before it was reported, and not run.
      expect(await pushes(j)).toBe(0);

      const waiting = await resume(j, sessionId, store);
      expect(waiting.code).toBe(3);
      expect(waiting.stdout).toContain(`still waiting for approval ${approvalId}`);
      expect(await pushes(j)).toBe(0);

      const approved = await a3sHooks([
        "approvals",
        "approve",
        approvalId,
        "--by",
        "alice",
        "--reason",
        "release day",
        "--store",
        store,
      ]);
      expect(approved.stderr).toBe("");
      expect(approved.code).toBe(0);

      const resumed = await resume(j, sessionId, store, ["--events", j.events]);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        `▶ resuming approval ${approvalId}: Bash allowed by alice (release day)`,
      );
      expect(resumed.stdout).toContain("started (resume)");
      expect(await pushes(j)).toBe(1);
      // PreToolUse fired again (and deferred again: the recorded decision answered it).
      const pre = fired(j.events, "PreToolUse");
      expect(pre).toHaveLength(1);
      expect(pre[0]?.result.reason).toBe("pushing needs a person");
      const post = fired(j.events, "PostToolUse");
      expect(
        post.map((r) => (r.event as unknown as { args: { command: string } }).args.command),
      ).toEqual(["echo pushed >> pushed.txt; : git push origin main"]);
      // The turn went on to its end: the model answered, and Stop fired.
      expect(fired(j.events, "Stop")).toHaveLength(1);

      const again = await resume(j, sessionId, store);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`nothing to resume: approval ${approvalId}`);
      expect(again.stdout).toContain("already resumed");
      expect(await pushes(j)).toBe(1);
    },
    SLOW,
  );

  it(
    "a person denies: the call never runs, PermissionDenied fires with their reason, the model reads the denial",
    async () => {
      const j = await journey("deny");
      const { approvalId, sessionId } = await parkPush(j, store);
      const denied = await a3sHooks([
        "approvals",
        "deny",
        approvalId,
        "--by",
        "bob",
        "--reason",
        "not on a Friday",
        "--store",
        store,
      ]);
      expect(denied.code).toBe(0);

      const resumed = await resume(j, sessionId, store, ["--events", j.events]);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        `▶ resuming approval ${approvalId}: Bash denied by bob (not on a Friday)`,
      );
      expect(await pushes(j)).toBe(0);
      const denial = fired(j.events, "PermissionDenied");
      expect(denial).toHaveLength(1);
      expect(denial[0]?.event).toMatchObject({
        tool: "Bash",
        decidedBy: "user",
        reason: "denied by bob: not on a Friday",
      });
      expect(fired(j.events, "PreToolUse")).toHaveLength(0);
      expect(fired(j.events, "PostToolUse")).toHaveLength(0);
      // The model read the denial: its final answer sums up the tool results.
      expect(resumed.stdout).toContain(
        "◆ Done. Bash: Error: permission denied for Bash: denied by bob",
      );
    },
    SLOW,
  );

  it(
    "chat parks too and ends the chat; resume builds chat's agent for its folder and runs the call",
    async () => {
      const j = await journey("chat");
      await mkdir(j.workdir);
      const chat = await runCli(
        ["chat", "--workdir", j.workdir, "--settings", j.settings, "--store", store, "--no-color"],
        { env: { HOME: j.home }, input: `${PUSH_PROMPT}\nbash: echo later >> later.txt\n` },
      );
      expect(chat.stderr).toBe("");
      expect(chat.code).toBe(0);
      const approvalId = /waiting for approval ([0-9a-f-]{36})/.exec(chat.stdout)?.[1] as string;
      const sessionId = /a3s-demo-agent resume (\S+)/.exec(chat.stdout)?.[1] as string;
      expect(approvalId).toBeDefined();
      // The chat ended at the parked call: the next prompt was not taken.
      expect(chat.stdout).not.toContain("echo later");
      expect(await pushes(j)).toBe(0);

      const approved = await a3sHooks([
        "approvals",
        "approve",
        approvalId,
        "--by",
        "dana",
        "--store",
        store,
      ]);
      expect(approved.code).toBe(0);
      const resumed = await resume(j, sessionId, store);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`▶ resuming approval ${approvalId}: Bash allowed by dana`);
      // chat's permission default is deny; the person's approval answered this call's question.
      expect(resumed.stdout).toContain("permission granted by user");
      expect(await pushes(j)).toBe(1);
    },
    SLOW,
  );

  it(
    kind.name === "PostgreSQL"
      ? "resume --wait waits for the decision made in another process, then runs the call"
      : "resume --wait is refused: nobody could decide while it held the embedded store",
    async () => {
      const j = await journey("wait");
      if (kind.name !== "PostgreSQL") {
        const refused = await resume(j, "5f0c1a52-0000-4000-8000-000000000000", store, ["--wait"]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          "error: --wait: the embedded store is open in one process",
        );
        return;
      }
      const { approvalId, sessionId } = await parkPush(j, store);
      const child = startCli(
        ["resume", sessionId, "--settings", j.settings, "--store", store, "--no-color", "--wait"],
        { env: { HOME: j.home } },
      );
      child.stdin?.end();
      const out = new LineWaiter(child.stdout!);
      let stderr = "";
      child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      const exited = new Promise<number | null>((done) => child.on("close", done));
      await out.next(new RegExp(`waiting for a decision on approval ${approvalId}`));
      expect(await pushes(j)).toBe(0);
      const approved = await a3sHooks([
        "approvals",
        "approve",
        approvalId,
        "--by",
        "carol",
        "--store",
        store,
      ]);
      expect(approved.code).toBe(0);
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
      expect(out.lines.join("\n")).toContain(
        `▶ resuming approval ${approvalId}: Bash allowed by carol`,
      );
      expect(await pushes(j)).toBe(1);
    },
    SLOW,
  );

  it(
    "resume runs every decided approval of the session in park order, lists the pending one (exit 3); --approval ID runs one",
    async () => {
      const j = await journey("many");
      const { approvalId: first, sessionId } = await parkPush(j, store);
      // Two more calls of the same session wait beside it (parked as the agent would, with the
      // first one's conversation), so the session has three approvals.
      const db = await openApprovalStore(store);
      const [second, third] = await (async () => {
        try {
          const saved = (await db.get(first)).context as ParkedContext;
          const parkAnother = async (id: string, command: string) => {
            const call = { id, name: "Bash", args: { command } };
            const messages = structuredClone(saved.messages);
            const asking = messages.at(-1) as { toolCalls?: unknown[] };
            asking.toolCalls = [call];
            return (
              await db.park({
                sessionId,
                toolName: "Bash",
                toolUseId: id,
                toolInput: call.args,
                reason: "pushing needs a person",
                context: { ...saved, messages, call, rest: [] },
              })
            ).id;
          };
          const ids = [
            await parkAnother("call-second", "echo second >> second.txt"),
            await parkAnother("call-third", "echo third >> third.txt"),
          ];
          // Decided out of park order: the third first, then the first; the second waits.
          await db.decide(ids[1] as string, { decision: "allow", by: "erin" });
          await db.decide(first, { decision: "allow", by: "alice" });
          return ids as [string, string];
        } finally {
          await db.close();
        }
      })();
      const count = (file: string) =>
        readFile(path.join(j.workdir, file), "utf8").then(
          (text) => text.split("\n").filter((line) => line !== "").length,
          () => 0,
        );

      const some = await resume(j, sessionId, store);
      expect(some.stderr).toBe("");
      expect(some.code).toBe(3);
      const at = (text: string) => {
        const index = some.stdout.indexOf(text);
        expect(index, text).toBeGreaterThanOrEqual(0);
        return index;
      };
      const order = [
        at(`▶ resuming approval ${first}: Bash allowed by alice`),
        at(`still waiting for approval ${second}: Bash`),
        at(`▶ resuming approval ${third}: Bash allowed by erin`),
      ];
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect([await pushes(j), await count("second.txt"), await count("third.txt")]).toEqual([
        1, 0, 1,
      ]);

      const decided = await a3sHooks([
        "approvals",
        "approve",
        second,
        "--by",
        "bob",
        "--store",
        store,
      ]);
      expect(decided.code).toBe(0);
      const one = await resume(j, sessionId, store, ["--approval", second]);
      expect(one.stderr).toBe("");
      expect(one.code).toBe(0);
      expect(one.stdout).toContain(`▶ resuming approval ${second}: Bash allowed by bob`);
      expect(one.stdout).not.toContain(first);
      expect([await pushes(j), await count("second.txt"), await count("third.txt")]).toEqual([
        1, 1, 1,
      ]);

      const none = await resume(j, sessionId, store);
      expect(none.code).toBe(0);
      expect(none.stdout).toContain(`nothing to resume: approval ${third}`);
      expect(none.stdout).not.toContain("▶ resuming");
      const other = await resume(j, sessionId, store, [
        "--approval",
        "5f0c1a52-0000-4000-8000-000000000000",
      ]);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(
        `error: approval: session ${sessionId} has no approval 5f0c1a52-0000-4000-8000-000000000000`,
      );
      expect([await pushes(j), await count("second.txt"), await count("third.txt")]).toEqual([
        1, 1, 1,
      ]);
    },
    SLOW,
  );

  it(
    kind.name === "PostgreSQL"
      ? "a person approves in the web inbox (Chromium): the agent waiting in another process runs the call"
      : "a person approves in the web inbox (Chromium); once it closes, resume in a new process runs the call",
    async () => {
      const j = await journey("inbox");
      const { approvalId, sessionId } = await parkPush(j, store);
      expect(await pushes(j)).toBe(0);

      // PostgreSQL serves a fleet: a second agent process waits while the inbox is open.
      const waiter =
        kind.name === "PostgreSQL"
          ? startCli(
              [
                "resume",
                sessionId,
                "--settings",
                j.settings,
                "--store",
                store,
                "--no-color",
              ].concat("--wait"),
              { env: { HOME: j.home } },
            )
          : undefined;
      const waiterOut = waiter ? new LineWaiter(waiter.stdout!) : undefined;
      const waiterExit = waiter
        ? new Promise<number | null>((done) => waiter.on("close", done))
        : undefined;
      waiter?.stdin?.end();
      await waiterOut?.next(new RegExp(`waiting for a decision on approval ${approvalId}`));

      // The real `a3s-hooks approvals serve`, its token from the environment.
      const inbox = startCli(["approvals", "serve", "--store", store], {
        program: "a3s-hooks",
        env: { A3S_TOKEN: INBOX_TOKEN },
      });
      inbox.stdin?.end();
      const inboxExit = new Promise<number | null>((done) => inbox.on("close", done));
      let inboxErr = "";
      const url = await new Promise<string>((done, fail) => {
        inbox.stderr!.setEncoding("utf8").on("data", (c: string) => {
          inboxErr += c;
          const m = /^inbox: (http:\/\/127\.0\.0\.1:\d+\/)/m.exec(inboxErr);
          if (m) done(m[1] as string);
        });
        inbox.on("close", (code) => fail(new Error(`inbox exited ${code}: ${inboxErr}`)));
      });

      const page = await (await browser()).context.newPage();
      try {
        await page.setViewportSize({ width: 375, height: 740 });
        await page.goto(`${url}#token=${INBOX_TOKEN}`);
        const card = page.locator(`#pending article[data-id="${approvalId}"]`);
        await card.waitFor();
        expect(await card.locator("pre.input").textContent()).toContain("git push origin main");
        await page.fill("#name", "alice");
        await card.locator("input.reason").fill("release day");
        await card.getByRole("button", { name: "Approve" }).click();
        await page.locator(`#decided article[data-id="${approvalId}"]`).waitFor();
      } finally {
        await page.close();
      }

      let resumed: { code: number | null; stdout: string };
      if (waiter && waiterOut && waiterExit) {
        const code = await waiterExit;
        resumed = { code, stdout: waiterOut.lines.join("\n") };
        inbox.kill("SIGTERM");
        expect(await inboxExit).toBe(0);
      } else {
        // The embedded store is one process's at a time: the inbox lets it go first.
        inbox.kill("SIGTERM");
        expect(await inboxExit).toBe(0);
        resumed = await resume(j, sessionId, store);
      }
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        `▶ resuming approval ${approvalId}: Bash allowed by alice (release day)`,
      );
      expect(await pushes(j)).toBe(1);
    },
    SLOW,
  );

  it(
    "resume of a session the store does not know is NOT_FOUND, naming the session",
    async () => {
      const j = await journey("unknown");
      const run = await resume(j, "5f0c1a52-0000-4000-8000-000000000000", store);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "error: session: no parked calls for session 5f0c1a52-0000-4000-8000-000000000000",
      );
    },
    SLOW,
  );
});

describe("a3s-demo-agent resume refuses bad input", () => {
  it("a malformed session id: a usage error naming the session", async () => {
    const run = await runCli(["resume", "not a session!", "--store", path.join(root, "none")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: session: "not a session!" is not a session id');
  });

  it("no session id at all", async () => {
    const run = await runCli(["resume"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: resume: which session?");
  });

  it("a store that does not exist, a file, a folder of something else: each named", async () => {
    const session = "5f0c1a52-0000-4000-8000-000000000000";
    const missing = await runCli(["resume", session, "--store", path.join(root, "no-such")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`error: store: no approval store at ${root}/no-such`);

    const file = path.join(root, "a-file");
    await writeFile(file, "not a database");
    const notFolder = await runCli(["resume", session, "--store", file]);
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toContain(`error: store: ${file} is not an approval store`);

    const folder = path.join(root, "a-folder");
    await mkdir(folder);
    await writeFile(path.join(folder, "notes.txt"), "hello");
    const other = await runCli(["resume", session, "--store", folder]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`error: store: ${folder} is not an approval store`);
  });
});
