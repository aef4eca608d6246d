import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive } from "../../../../test-support/process-alive.ts";
import { programArgs } from "../../../../test-support/program-bundles.ts";

/**
 * The real bin, from source: bundled once per run (test/programs.ts; tsx would cost most of a
 * second per start), then run in real processes, each with its own HOME.
 */
const bin = () => programArgs("a3s-hooks");

const fixtures = resolve(import.meta.dirname, "../../test/fixtures/hooks");
const fixture = (name: string) => join(fixtures, name);

let root: string;
let cwd: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-cli-"));
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], input?: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...bin(), ...args], {
      cwd,
      env: { ...process.env, HOME: home },
      stdio: "pipe",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

const group = (matcher: string | undefined, ...hooks: Record<string, unknown>[]) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: hooks.map((h) => ({ type: "command", ...h })),
});

describe("a3s-hooks test", () => {
  it("blocks through a Claude Code validator (python, exit 2) and exits 2", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: { PreToolUse: [group("Bash", { command: fixture("claude-validator.py") })] },
    });
    const blocked = await cli([
      "test",
      "PreToolUse",
      "--settings",
      settings,
      "--tool",
      "Bash",
      "--args",
      '{"command":"rm -rf /"}',
    ]);
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toContain("block, exit 2");
    expect(blocked.stdout).toContain(
      "Result: block: Blocked: recursive delete of the root directory",
    );

    const json = await cli([
      "test",
      "pre_tool_use",
      "--settings",
      settings,
      "--tool",
      "Bash",
      "--args",
      '{"command":"git push --force"}',
      "--json",
    ]);
    expect(json.code).toBe(2);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({
      action: "block",
      reason: "Blocked: force-pushing is not allowed",
      eventName: "PreToolUse",
      event: { eventType: "PreToolUse", tool: "Bash", args: { command: "git push --force" } },
    });
    expect(result.hooks[0]).toMatchObject({ exitCode: 2, status: "ok", action: "block" });

    const allowed = await cli([
      "test",
      "PreToolUse",
      "--settings",
      settings,
      "--tool",
      "Bash",
      "--args",
      '{"command":"ls"}',
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("Result: continue");
  });

  it("matches a catastrophic regex from a settings file in linear time and exits at once", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: { PreToolUse: [group("^(a+)+$", { command: "exit 2" })] },
    });
    // A backtracking engine needs minutes for this name; the test's timeout is the hang guard.
    const run = await cli([
      "test",
      "PreToolUse",
      "--settings",
      settings,
      "--tool",
      `${"a".repeat(31)}!`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Result: continue");
  });

  it("refuses a settings matcher the linear-time engine cannot run, naming where it is", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: { PreToolUse: [group("(?!Read).*", { command: "exit 2" })] },
    });
    const run = await cli(["test", "PreToolUse", "--settings", settings, "--tool", "Bash"]);
    expect(`${run.stdout}${run.stderr}`).toContain("PreToolUse[0].matcher");
    expect(`${run.stdout}${run.stderr}`).toContain("no backreferences or lookaround");
  });

  it("takes a captured Claude Code payload on stdin and shows the rewritten input", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: { PreToolUse: [group("Bash", { command: fixture("updated-input.py") })] },
    });
    const payload = {
      session_id: "abc",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      cwd: "/somewhere",
    };
    const run = await cli(
      ["test", "PreToolUse", "--settings", settings, "--input", "-", "--json"],
      JSON.stringify(payload),
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      action: "continue",
      permission: "allow",
      modified: true,
      event: { sessionId: "abc", args: { command: "ls --color=never" } },
    });
  });

  it("reports every way a hook can go wrong, without blocking", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: {
        PostToolUse: [
          group(
            "*",
            {
              command: `${fixture("sleeper.sh")} ${join(root, "pid")}`,
              timeout: 1,
              name: "sleeper",
            },
            { command: fixture("crash.py"), name: "crash" },
            { command: fixture("garbage.sh"), name: "garbage" },
            { command: fixture("flood.py"), name: "flood" },
            { command: "no-such-command-a3s", name: "missing" },
            { args: [fixture("modified-args.sh")], name: "modified_args" },
          ),
        ],
      },
    });
    const run = await cli(["test", "PostToolUse", "--settings", settings, "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    interface HookJson {
      name: string;
      status: string;
      exitCode: number | null;
      error: { code: string; message: string };
      notes: string[];
    }
    const hook = (name: string): HookJson => {
      const found = (result.hooks as HookJson[]).find((h) => h.name === name);
      if (!found) throw new Error(`no hook ${name} in the output`);
      return found;
    };
    const byName = {
      sleeper: hook("sleeper"),
      crash: hook("crash"),
      garbage: hook("garbage"),
      flood: hook("flood"),
      missing: hook("missing"),
      modified_args: hook("modified_args"),
    };
    expect(byName.sleeper).toMatchObject({ status: "timeout", action: "continue" });
    expect(byName.crash).toMatchObject({
      status: "failed",
      exitCode: 1,
      error: { code: "HANDLER_FAILED", message: "exit code 1: fatal: the hook crashed" },
    });
    expect(byName.garbage.error.code).toBe("INVALID_OUTPUT");
    expect(byName.flood).toMatchObject({ status: "ok", exitCode: 0 });
    expect(byName.flood.notes).toEqual([
      `stdout cut to 1048576 of ${50 * 1024 * 1024} bytes`,
      `stderr cut to 1048576 of ${50 * 1024 * 1024} bytes`,
    ]);
    expect(byName.missing).toMatchObject({ status: "failed", exitCode: 127 });
    expect(byName.missing.error.message).toMatch(/^exit code 127 \(command not found\)/);
    // PostToolUse allows hooks to modify result.output only: a modified_args patch is refused.
    expect(byName.modified_args).toMatchObject({ status: "failed" });
    expect(byName.modified_args.error.code).toBe("INVALID_MODIFICATION");
    expect(result.action).toBe("continue");
    await expect
      .poll(() => isAlive(Number(readFileSync(join(root, "pid"), "utf8"))), { timeout: 5000 })
      .toBe(false);
  });

  it("names the if condition, not the matcher, when the condition kept a hook out", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: "echo pushing", if: "Bash(git *)" }],
          },
        ],
      },
    });
    const run = await cli(["test", "PreToolUse", "--tool", "Bash", "--args", '{"command":"ls"}']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /echo pushing .*\n\s+matcher: if "Bash\(git \*\)" does not match this call/,
    );
    expect(run.stdout).not.toContain('matcher "Bash" does not match "Bash"');
  });

  it("says why each configured hook did not run", async () => {
    write(join(cwd, ".claude/settings.json"), {
      hooks: { PreToolUse: [group("Bash", { command: "echo project" })] },
    });
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          group("Write|Edit", { command: "echo formatter" }),
          group("Bash", { command: "echo user" }),
        ],
        Stop: [group(undefined, { command: "echo bye" })],
      },
    });
    const extra = write(join(root, "extra.json"), {
      hooks: { PreToolUse: [group("Bash", { command: "echo user" })] },
    });
    const run = await cli(["test", "PreToolUse", "--settings", extra, "--tool", "Bash"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Did not run:");
    expect(run.stdout).toMatch(
      /echo project .*\n\s+untrusted: the project's hook settings are not trusted yet/,
    );
    expect(run.stdout).toMatch(
      /echo formatter .*\n\s+matcher: matcher "Write\|Edit" does not match "Bash"/,
    );
    expect(run.stdout).toMatch(
      /echo user .*~\/\.claude\/settings\.json.*\n\s+duplicate: same command as/,
    );
    expect(run.stdout).toContain("(1 hook(s) are configured for other events.)");

    write(join(home, ".config/agent/settings.json"), { disableAllHooks: true });
    const off = await cli(["test", "PreToolUse", "--settings", extra, "--tool", "Bash", "--json"]);
    const result = JSON.parse(off.stdout);
    expect(result.hooks).toEqual([]);
    expect(result.notRun.map((n: { reason: string }) => n.reason)).toEqual([
      "disabled",
      "disabled",
      "disabled",
      "disabled",
    ]);
  });

  it("answers usage and configuration errors with one line and a hint, exit 1", async () => {
    const unknown = await cli(["test", "PreToolUze"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toBe(
      'a3s-hooks: unknown event name "PreToolUze" (did you mean "PreToolUse"?)\nhint: events: SessionStart, SessionEnd, UserPromptSubmit, GenerateStart, GenerateEnd, PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionGranted, PermissionDenied, PreCompact, PostCompact, ContextWarning, Stop, SubagentStart, SubagentStop, Notification, SkillLoad, SkillUnload, PostToolBatch, UserPromptExpansion, StopFailure, Elicitation, ElicitationResult, TeammateIdle, TaskCreated, TaskCompleted, Setup, InstructionsLoaded, CwdChanged, FileChanged, ConfigChange, WorktreeCreate, WorktreeRemove, PreModelSwitch, PostModelSwitch, MessageDisplay, DirectoryAdded\n',
    );
    const badArgs = await cli(["test", "PreToolUse", "--args", "{nope"]);
    expect(badArgs.code).toBe(1);
    expect(badArgs.stderr).toMatch(/^a3s-hooks: --args: not valid JSON \(.*\)\n$/);
    const badOption = await cli(["list", "--jsn"]);
    expect(badOption.code).toBe(1);
    expect(badOption.stderr).toContain("unknown option '--jsn'");
    expect(badOption.stderr).toContain("hint:");
    const badCwd = await cli(["validate", "--cwd", join(root, "nowhere")]);
    expect(badCwd.code).toBe(1);
    expect(badCwd.stderr).toMatch(
      /^a3s-hooks: --cwd: no such directory ".*nowhere"\nhint: pass an existing directory\n$/,
    );
    expect(badCwd.stderr).not.toMatch(/\n\s+at /);
    const debug = await cli(["validate", "--cwd", join(root, "nowhere"), "--debug"]);
    expect(debug.stderr).toMatch(/\n\s+at /);
    const brokenSettings = write(join(root, "broken.json"), '{"hooks": {"Stop": [}}');
    const config = await cli(["test", "Stop", "--settings", brokenSettings]);
    expect(config.code).toBe(1);
    expect(config.stderr).toContain(
      'broken.json:1:21: invalid JSON at line 1, column 21: unexpected "}"; expected a value',
    );
  });
});

describe("a3s-hooks validate, list and trust", () => {
  it("validate prints what it found and the problems; exit 1 on errors only", async () => {
    write(join(cwd, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          group("Bash", { command: "./ok.sh" }, { command: "./slow.sh", timeout: "ten" }),
        ],
        Unknown: [],
      },
    });
    const bad = await cli(["validate"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      "PreToolUse [Bash] ./ok.sh  (.claude/settings.json hooks.PreToolUse[0].hooks[0])  [not trusted]",
    );
    expect(bad.stdout).toContain(
      'error: .claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout: expected a positive number, got "ten"',
    );
    expect(bad.stdout).toContain(
      'warning: .claude/settings.json: hooks.Unknown: unknown event name "Unknown"',
    );

    write(join(cwd, ".claude/settings.json"), {
      hooks: { Stop: [group(undefined, { command: "echo" })] },
    });
    const good = await cli(["validate", "--json"]);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({
      ok: true,
      hooks: [{ event: "Stop", command: "echo", source: ".claude/settings.json", trusted: false }],
    });
  });

  it("trust records the project's hooks; list then shows them in execution order", async () => {
    write(join(cwd, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          group("Bash", { command: "./second.sh" }),
          group("Bash", { command: "./first.sh", priority: -1 }),
        ],
      },
    });
    const before = JSON.parse((await cli(["list", "--json"])).stdout);
    expect(before.hooks).toEqual([]);
    expect(before.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      "untrusted",
      "untrusted",
    ]);

    const trusted = await cli(["trust"]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/^Trusted 2 hook\(s\) of /);
    expect(trusted.stdout).toContain("PreToolUse [Bash] ./second.sh");
    expect(trusted.stdout).toContain("recorded in ~/.config/a3s-hooks/trusted.json");
    expect(existsSync(join(home, ".config/a3s-hooks/trusted.json"))).toBe(true);

    const after = JSON.parse((await cli(["list", "--json"])).stdout);
    expect(after.hooks.map((h: { command: string }) => h.command)).toEqual([
      "./first.sh",
      "./second.sh",
    ]);
    expect(after.hooks[0]).toMatchObject({
      timeout: 60000,
      failBehavior: "continue",
      priority: -1,
    });

    const human = await cli(["list"]);
    expect(human.stdout).toMatch(/^PreToolUse:\n {2}PreToolUse \[Bash\] \.\/first\.sh/);
  });
});

describe("a3s-hooks on a terminal", () => {
  /** The bin under a real pseudo-terminal (util-linux `script`), as a user's shell runs it. */
  function onTerminal(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const { NO_COLOR: _, FORCE_COLOR: __, ...base } = process.env;
    const command = [process.execPath, ...bin(), ...args].map((a) => `'${a}'`).join(" ");
    return new Promise((done, fail) => {
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        cwd,
        env: { ...base, HOME: home, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
      child.on("error", fail);
      child.on("close", (code) => done({ code, stdout, stderr: "" }));
    });
  }

  it("colours block red unless NO_COLOR is set; a pipe gets no colour", async () => {
    const settings = write(join(root, "hooks.json"), {
      hooks: { Stop: [group(undefined, { command: "echo stop >&2; exit 2" })] },
    });
    const args = ["test", "Stop", "--settings", settings, "--no-defaults"];
    const coloured = await onTerminal(args);
    expect(coloured.code).toBe(2);
    expect(coloured.stdout).toContain("Result: \u001b[31mblock\u001b[39m: stop");
    const noColor = await onTerminal(args, { NO_COLOR: "1" });
    expect(noColor.stdout).toContain("Result: block: stop");
    expect(noColor.stdout).not.toContain("\u001b[");
    const piped = await cli(args);
    expect(piped.stdout).toContain("Result: block: stop");
    expect(piped.stdout).not.toContain("\u001b[");
  });

  it("prints help and exits 0 when run bare, and its version", async () => {
    const bare = await cli([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^Usage: a3s-hooks /);
    expect(bare.stderr).toBe("");
    const version = await cli(["--version"]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
