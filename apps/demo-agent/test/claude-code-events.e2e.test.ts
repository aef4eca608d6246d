import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineWaiter, startCli } from "./cli-process.js";

/**
 * One `chat` session, driven line by line, with a settings file whose command hooks observe
 * (or refuse) each of Claude Code's events the demo fires. Every hook appends its stdin, one
 * JSON object a line, to a log the tests read.
 */
let dir: string;
let log: string;
let stdout: string[];
let observed: Record<string, unknown>[];
let code: number | null;

const observe = (file: string) => `{ cat; echo; } >> '${file}'`;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "demo-cc-events-")));
  const work = path.join(dir, "work");
  mkdirSync(work);
  mkdirSync(path.join(dir, "home"));
  log = path.join(dir, "observed.jsonl");
  writeFileSync(path.join(work, "CLAUDE.md"), "# Rules\nBe brief.\n");
  const hook = (command: string) => [{ hooks: [{ type: "command", command }] }];
  const settings = path.join(dir, "settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        InstructionsLoaded: hook(observe(log)),
        CwdChanged: hook(observe(log)),
        FileChanged: [{ matcher: ".env", hooks: [{ type: "command", command: observe(log) }] }],
        StopFailure: [
          { matcher: "rate_limit", hooks: [{ type: "command", command: observe(log) }] },
        ],
        ConfigChange: [
          {
            matcher: "project_settings",
            hooks: [
              {
                type: "command",
                command: `${observe(log)}; echo "no settings edits mid-session" >&2; exit 2`,
              },
            ],
          },
        ],
      },
    }),
  );
  const chat: ChildProcess = startCli(
    ["chat", "--workdir", work, "--settings", settings, "--permission", "allow", "--no-color"],
    { env: { HOME: path.join(dir, "home") } },
  );
  const out = new LineWaiter(chat.stdout!);
  const closed = new Promise<number | null>((resolve) => chat.once("close", resolve));
  for (const prompt of [
    "bash: mkdir -p sub",
    "bash: cd sub",
    "write .env: MODE=test",
    "fail: rate_limit",
    "write .claude/settings.json: {}\\n",
  ]) {
    chat.stdin!.write(`${prompt}\n`);
  }
  // The chat takes the settings change in (or refuses it) on its own time: wait for its line.
  await out.next(/settings not reloaded/);
  chat.stdin!.end();
  code = await closed;
  stdout = out.lines;
  observed = readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const firing = (event: string) => observed.find((o) => o.hook_event_name === event);

describe("chat fires Claude Code's other events at settings-file command hooks", () => {
  it("ends cleanly", () => {
    expect(code).toBe(0);
  });

  it("InstructionsLoaded: the session read CLAUDE.md at its start", () => {
    expect(firing("InstructionsLoaded")).toMatchObject({
      file_path: path.join(dir, "work", "CLAUDE.md"),
      memory_type: "Project",
      load_reason: "session_start",
    });
  });

  it("CwdChanged: `cd sub` moved the session's shell", () => {
    expect(firing("CwdChanged")).toMatchObject({
      old_cwd: path.join(dir, "work"),
      new_cwd: path.join(dir, "work", "sub"),
    });
  });

  it("FileChanged: writing .env, a file the hook's matcher names", () => {
    expect(firing("FileChanged")).toMatchObject({
      file_path: path.join(dir, "work", ".env"),
      file_name: ".env",
      event: "add",
    });
    expect(observed.filter((o) => o.hook_event_name === "FileChanged")).toHaveLength(1);
  });

  it("StopFailure: the failed model call, matched by its error type", () => {
    expect(firing("StopFailure")).toMatchObject({ error: "rate_limit" });
    expect(stdout.join("\n")).toContain("✖ turn failed: rate_limit");
  });

  it("ConfigChange: the hook refused the project settings change, and the chat said so", () => {
    expect(firing("ConfigChange")).toMatchObject({
      source: "project_settings",
      file_path: path.join(dir, "work", ".claude", "settings.json"),
    });
    expect(stdout.join("\n")).toMatch(
      /settings not reloaded: a ConfigChange hook refused the change of \.claude\/settings\.json: no settings edits mid-session/,
    );
  });
});
