import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { AuditEvent } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventLogRecord } from "../src/event-log.js";
import { APP_DIR, type CliRun, readJsonl, runCli } from "./cli-process.js";
import { checkEventPoints, missingEvents } from "./event-points.js";

let dir: string;
let run: CliRun;
let events: EventLogRecord[];
let audit: AuditEvent[];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "demo-run-e2e-")));
  // An empty home: the user's own hooks must not change what the scenario shows. It exists, as
  // a user's does: for a missing one, the settings watcher watches its parent, where the event
  // logs below are written (hundreds of file events a second, which pause the watching).
  await mkdir(path.join(dir, "home"));
  run = await runCli(
    ["run", "--events", path.join(dir, "events.jsonl"), "--audit", path.join(dir, "audit.jsonl")],
    {
      env: { HOME: path.join(dir, "home") },
    },
  );
  events = readJsonl<EventLogRecord>(path.join(dir, "events.jsonl"));
  audit = readJsonl<AuditEvent>(path.join(dir, "audit.jsonl"));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a3s-demo-agent run", () => {
  it("exits 0 and prints a plain transcript when stdout is not a terminal", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\x1b[");
  });

  it("fires every one of the 25 events, each at its point with a valid payload", () => {
    expect(missingEvents(events)).toEqual([]);
    expect(checkEventPoints(events)).toEqual([]);
  });

  it("shows each feature of the scenario in the transcript", () => {
    const out = run.stdout;
    expect(out).toContain("✖ blocked by a hook (no-dangerous-commands)");
    expect(out).toMatch(/✎ arguments rewritten \(bash-timeout\): timeout: \(none\) → 10000/);
    expect(out).toContain("+ hook context: formatted config.json");
    expect(out).toContain("? permission requested");
    expect(out).toContain("✔ permission granted by hook");
    expect(out).toContain("✔ permission granted by default");
    expect(out).toContain("✖ permission denied by hook: network access is not allowed in the demo");
    expect(out).toMatch(/⟳ compacted: \d+ → \d+ messages/);
    expect(out).toMatch(/┌ subagent subagent-1/);
    expect(out).toContain("✚ skill careful-shell loaded");
    expect(out).toContain("sudo is not allowed while the careful-shell skill is loaded");
    expect(out).toContain("− skill careful-shell unloaded");
    expect(out).toContain("⏎ Stop hook says keep going (check-before-stop)");
    expect(out).toContain("✎ prompt rewritten (redact-secrets)");
    expect(out).toContain("25 of 25 events fired");
    expect(out).toContain("☰ instructions loaded: CLAUDE.md (session_start)");
    expect(out).toMatch(/↳ cwd: .+ → .+\/docs/);
    expect(out).toContain("◎ watched file .env created: the .env file changed");
    expect(out).toContain(
      "✖ settings change refused (no-project-settings-changes): project settings changed during the run",
    );
    expect(out).toContain("✖ turn failed: rate_limit");
    expect(out).toContain("prompt rewritten (redact-secrets): remember my key sk-…[redacted]");
  });

  it("formats config.json with the settings-file command hook, after Write", () => {
    const read = events.find(
      (r) => r.event.eventType === "PostToolUse" && (r.event as { tool: string }).tool === "Read",
    );
    expect((read!.event as { result: { output: string } }).result.output).toBe(
      '{\n  "name": "demo",\n  "tags": [\n    "hooks",\n    "agents"\n  ]\n}\n',
    );
    const write = events.find(
      (r) => r.event.eventType === "PostToolUse" && (r.event as { tool: string }).tool === "Write",
    );
    expect(write?.result.hooks).toContain("format-json");
  });

  it("keeps the secret from the model and the careful-shell skill's hook only while loaded", () => {
    const generations = events.filter((r) => r.event.eventType === "GenerateStart");
    expect(JSON.stringify(generations)).not.toContain("sk-demo1234567890abcdef");
    const sudo = events.find(
      (r) => r.event.eventType === "PreToolUse" && JSON.stringify(r.event).includes("sudo ls"),
    );
    expect(sudo?.result).toMatchObject({
      action: "block",
      reason: "sudo is not allowed while the careful-shell skill is loaded",
    });
    const unload = events.findIndex((r) => r.event.eventType === "SkillUnload");
    const laterPre = events.slice(unload).filter((r) => r.event.eventType === "PreToolUse");
    for (const r of laterPre) expect(r.result.hooks.some((h) => h.includes("no-sudo"))).toBe(false);
  });

  it("writes the engine's audit records, tied to the events that caused them", () => {
    const types = new Set(audit.map((a) => a.type));
    for (const t of ["registered", "unregistered", "completed", "blocked", "modified"])
      expect(types).toContain(t);
    const ids = new Set(events.map((r) => r.event.eventId));
    for (const a of audit) if ("eventId" in a && a.eventId) expect(ids.has(a.eventId)).toBe(true);
    const blocked = audit.filter((a) => a.type === "blocked");
    expect(blocked.map((a) => (a as { event: string }).event)).toEqual(
      expect.arrayContaining(["PreToolUse", "PermissionRequest", "Stop"]),
    );
  });
});

describe("a3s-demo-agent run, on a terminal", () => {
  it("is coloured with FORCE_COLOR, and plain with --no-color", async () => {
    const home = path.join(dir, "home");
    const [coloured, plain] = await Promise.all([
      runCli(["run"], { env: { FORCE_COLOR: "1", HOME: home } }),
      runCli(["run", "--no-color"], { env: { FORCE_COLOR: "1", HOME: home } }),
    ]);
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain("\x1b[31m");
    expect(plain.stdout).not.toContain("\x1b[");
  }, 60_000);

  it("answers bad arguments with a usage error naming them", async () => {
    const bad = await runCli(["run", "--bogus"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*bogus.*\nhint: a3s-demo-agent --help\n$/);
    const busy = path.join(dir, "busy");
    await mkdir(busy, { recursive: true });
    await writeFile(path.join(busy, "keep.txt"), "mine");
    const refused = await runCli(["run", "--workdir", busy]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: --workdir: .*busy is not empty/);
    expect(await readFile(path.join(busy, "keep.txt"), "utf8")).toBe("mine");
    // The `a3s-demo-agent` bin runs the CLI from source through tsx, as `pnpm start` does; the
    // other tests start its bundle. execFile rejects unless it exits 0.
    const help = await promisify(execFile)(process.execPath, [
      path.join(APP_DIR, "bin", "a3s-demo-agent.js"),
      "--help",
    ]);
    expect(help.stdout).toContain("Usage: a3s-demo-agent");
  }, 60_000);
});
