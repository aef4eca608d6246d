import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandRunReport } from "../handlers/command/command-hook.js";
import { applyHookSettings, engineOptionsFromSettings } from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";

/** The settings examples of the hooks-system design and the CLI-agent hooks specification, copied verbatim from the designs. */
const fixtures = resolve(import.meta.dirname, "../../test/fixtures/settings");

let root: string;
let cwd: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-designs-"));
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function setUp(file: string) {
  const settings = await loadHookSettings({ cwd, home, files: [file], defaults: false });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  const runs: CommandRunReport[] = [];
  const handle = applyHookSettings(engine, settings, {
    projectDir: cwd,
    // `~` in the designs' commands must land in the temporary home, not the real one.
    env: { PATH: process.env.PATH, HOME: home },
    onRun: (report) => runs.push(report),
  });
  const fire = async (event: HookEvent) => {
    runs.length = 0;
    const result = await engine.fire(event);
    return { result, runs: runs.map((r) => ({ name: r.name, exit: r.exitCode })) };
  };
  return { settings, handle, fire };
}

const tool = (name: string, args: Record<string, unknown>) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: name, args });
const post = (name: string, args: Record<string, unknown>, output: string) =>
  createEvent("PostToolUse", {
    sessionId: "s1",
    tool: name,
    args,
    result: { success: true, output, duration: 3 },
  });
const stop = () => createEvent("Stop", { sessionId: "s1", stopHookActive: false });
const notify = (message: string) =>
  createEvent("Notification", { sessionId: "s1", message, notificationType: "status" });

describe("the hooks-system design's settings.json", () => {
  it("loads without a problem", async () => {
    const { settings, handle } = await setUp(join(fixtures, "hooks-system-settings.json"));
    expect(settings.problems).toEqual([]);
    expect(handle.skipped).toEqual([]);
    expect(
      settings.hooks.map((h) => [h.event, h.name, h.matcher ?? "*", h.definition.timeout]),
    ).toEqual([
      ["PreToolUse", "security-check", "Bash|Write", 30],
      ["PostToolUse", "audit-log", "*", undefined],
      ["SessionStart", "notify-send 'Session started'", "*", undefined],
      ["SessionEnd", "cleanup-temp.sh", "*", undefined],
    ]);
  });

  it("fires: the python security check blocks, missing tools fail without blocking", async () => {
    // The design's `python check_security.py` runs in the project directory.
    writeFileSync(
      join(cwd, "check_security.py"),
      [
        "import json, sys",
        "event = json.load(sys.stdin)",
        'assert event["event"] == "pre_tool_use"',
        'if "rm -rf" in event["tool_input"].get("command", ""):',
        '    print(json.dumps({"continue_execution": False, "stop_reason": "Dangerous command blocked"}))',
      ].join("\n"),
    );
    // The design's audit hook appends to /tmp/audit.log; point that copy at the temporary directory.
    const log = join(root, "audit.log");
    const copy = join(root, "hooks-system.json");
    writeFileSync(
      copy,
      readFileSync(join(fixtures, "hooks-system-settings.json"), "utf8").replace(
        "/tmp/audit.log",
        log,
      ),
    );
    const { fire } = await setUp(copy);

    const blocked = await fire(tool("Bash", { command: "rm -rf /" }));
    expect(blocked.result.action).toBe("block");
    expect(blocked.result.reason).toBe("Dangerous command blocked");
    expect((await fire(tool("Bash", { command: "ls" }))).result.action).toBe("continue");
    expect((await fire(tool("Read", { file_path: "x" }))).runs).toEqual([]);

    const audited = await fire(post("Bash", { command: "ls" }, "a b"));
    expect(audited.runs).toEqual([{ name: "audit-log", exit: 0 }]);
    expect(readFileSync(log, "utf8")).toBe('{"event":"$EVENT"}\n');

    const start = await fire(createEvent("SessionStart", { sessionId: "s1", source: "startup" }));
    expect(start.runs).toEqual([{ name: "notify-send 'Session started'", exit: 127 }]);
    expect(start.result.action).toBe("continue");
    expect(start.result.outcomes[0]?.error?.message).toMatch(
      /^exit code 127 \(command not found\)/,
    );

    const end = await fire(createEvent("SessionEnd", { sessionId: "s1", reason: "exit" }));
    expect(end.runs).toEqual([{ name: "cleanup-temp.sh", exit: 127 }]);
    expect(end.result.action).toBe("continue");
  });
});

describe("the CLI-agent hooks specification's examples", () => {
  it.each([
    "cli-agent-config.json",
    "cli-agent-example-1.json",
    "cli-agent-example-2.json",
    "cli-agent-example-3.json",
    "cli-agent-example-4.json",
  ])("%s loads without a problem", async (name) => {
    const { settings, handle } = await setUp(join(fixtures, name));
    expect(settings.problems).toEqual([]);
    expect(handle.skipped).toEqual([]);
    expect(handle.applied.length).toBeGreaterThan(0);
  });

  it("the configuration example fires on every event it names", async () => {
    const { fire } = await setUp(join(fixtures, "cli-agent-config.json"));
    const pre = await fire(tool("bash_execute", { command: "ls" }));
    expect(pre.runs).toEqual([{ name: "echo 'About to execute bash command'", exit: 0 }]);
    expect(pre.result.action).toBe("continue");

    const postRun = await fire(post("read_file", { path: "x" }, "hello"));
    expect(postRun.runs).toEqual([
      { name: "notify-send 'Tool completed: {{tool_name}}'", exit: 127 },
    ]);
    expect(postRun.result.action).toBe("continue");

    const note = await fire(notify("it's $(done)"));
    expect(note.runs.map((r) => r.name)).toEqual(["logger 'CLI-Agent: {{message}}'"]);
    expect(note.result.action).toBe("continue");

    const stopped = await fire(stop());
    expect(stopped.runs).toEqual([
      { name: "echo 'Response complete' >> ~/.cli-agent-log", exit: 0 },
    ]);
    expect(readFileSync(join(home, ".cli-agent-log"), "utf8")).toBe("Response complete\n");
  });

  it("example 1 (formatting) runs both hooks for a matching write, and none for others", async () => {
    const { fire } = await setUp(join(fixtures, "cli-agent-example-1.json"));
    const written = await fire(post("write_file", { file_path: "a b.py" }, "ok"));
    expect(written.runs.map((r) => r.exit)).toEqual([0, 0]);
    expect((await fire(post("read_file", { file_path: "a.py" }, "ok"))).runs).toEqual([]);
  });

  it("example 2 (audit log) logs hostile commands verbatim and runs none of them", async () => {
    const { fire } = await setUp(join(fixtures, "cli-agent-example-2.json"));
    const canary = join(root, "CANARY");
    const hostile = `echo hi'; touch ${canary}; echo '`;
    await fire(tool("bash_execute", { command: hostile }));
    await fire(post("bash_execute", { command: hostile }, `$(touch ${canary})`));
    const log = readFileSync(join(home, ".cli-agent-audit.log"), "utf8");
    expect(log).toContain(`BASH: ${hostile}\n`);
    expect(log).toContain(`TOOL: bash_execute - $(touch ${canary})`);
    expect(() => readFileSync(canary)).toThrow();
  });

  it("examples 3 and 4 call tools this machine lacks: they fail without blocking", async () => {
    const three = await setUp(join(fixtures, "cli-agent-example-3.json"));
    expect((await three.fire(stop())).runs.map((r) => r.exit)).toEqual([127]);
    const slack = await three.fire(notify("build finished"));
    expect(slack.runs.map((r) => r.exit)).toEqual([127]);
    expect(slack.result.action).toBe("continue");

    const four = await setUp(join(fixtures, "cli-agent-example-4.json"));
    const checked = await four.fire(tool("bash_execute", { command: "ls" }));
    expect(checked.runs).toEqual([
      { name: "/usr/local/bin/security-check '{{tool_args.command}}'", exit: 127 },
    ]);
    expect(checked.result.action).toBe("continue");
    expect(checked.result.outcomes[0]?.status).toBe("failed");
  });
});
