import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings, engineOptionsFromSettings } from "../apply-hook-settings.js";
import { loadHookSettings } from "../load-hook-settings.js";
import { trustProject } from "../project-trust.js";
import { detectFormat } from "./hook-formats.js";

/**
 * Codex's inline `[hooks]` tables in `config.toml`, written as OpenAI's Codex configuration
 * reference shows them (`[[hooks.PreToolUse]]` groups, `[[hooks.PreToolUse.hooks]]` handlers,
 * a Python policy script run by `/usr/bin/python3`), read beside `hooks.json` and fired
 * through the engine.
 */
let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-codex-toml-")));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/**
 * The reference's policy script in Python: it saves its stdin, denies a command containing
 * `rm -rf` through `permissionDecision`, exits 2 with a reason on `sudo`, and allows the rest.
 */
function policy(name: string): string {
  const file = write(
    join(root, "scripts", `${name}.py`),
    `import json, sys
data = json.load(sys.stdin)
with open(${JSON.stringify(join(root, `${name}.stdin.json`))}, "w") as f:
    json.dump(data, f)
command = data.get("tool_input", {}).get("command", "")
if "rm -rf" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "destructive command"}}))
elif command.startswith("sudo"):
    print("no sudo in this repository", file=sys.stderr)
    sys.exit(2)
`,
  );
  return `/usr/bin/python3 '${file}'`;
}
const stdinOf = (name: string) =>
  JSON.parse(readFileSync(join(root, `${name}.stdin.json`), "utf8")) as Record<string, unknown>;
const ran = (name: string) => {
  try {
    readFileSync(join(root, `${name}.stdin.json`));
    return true;
  } catch {
    return false;
  }
};

/** A TOML basic string: JSON's escapes are TOML's for the characters used here. */
const str = (value: string) => JSON.stringify(value);
const preToolUse = (command: string, extra = "") => `
[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = ${str(command)}
timeout = 30
statusMessage = "Checking Bash command"
${extra}`;
const configToml = (dir: string, body: string) =>
  write(
    join(dir, ".codex/config.toml"),
    `model = "gpt-5-codex"\n${body}\n\n[features]\nhooks = true\n`,
  );

async function engineFor() {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}
const fire = (engine: HookEngine, event: HookEvent) => engine.fire(event as never);
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe("Codex config.toml [hooks]", () => {
  it("runs the user's inline hooks with Codex's stdin: deny, exit 2 and allow", async () => {
    const file = configToml(home, preToolUse(policy("guard")));
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.files).toContainEqual(
      expect.objectContaining({ path: file, format: "codex", scope: "user", hooks: 1 }),
    );
    expect(settings.hooks.map((h) => [h.event, h.origin, h.definition.timeout, h.path])).toEqual([
      [
        "PreToolUse",
        { format: "codex", event: "PreToolUse", matcher: "^Bash$" },
        30,
        "hooks.PreToolUse[0].hooks[0]",
      ],
    ]);
    const denied = await fire(engine, bash("rm -rf build"));
    expect([denied.action, denied.reason]).toEqual(["block", "destructive command"]);
    expect(stdinOf("guard")).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s1",
      transcript_path: null,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    const sudo = await fire(engine, bash("sudo make install"));
    expect([sudo.action, sudo.reason]).toEqual(["block", "no sudo in this repository"]);
    const allowed = await fire(engine, bash("ls"));
    expect([allowed.action, allowed.outcomes.map((o) => o.status)]).toEqual(["continue", ["ok"]]);
  });

  it("reads hooks.json and config.toml of one layer both, and runs both hooks", async () => {
    write(
      join(home, ".codex/hooks.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: policy("from-json") }] }] },
      }),
    );
    configToml(home, preToolUse(policy("from-toml")));
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => h.source)).toEqual([
      join(home, ".codex/hooks.json"),
      join(home, ".codex/config.toml"),
    ]);
    const result = await fire(engine, bash("ls"));
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
    expect(result.action).toBe("continue");
    expect([ran("from-json"), ran("from-toml")]).toEqual([true, true]);
  });

  it("runs the project's inline hooks only once the project is trusted", async () => {
    configToml(cwd, preToolUse(policy("project")));
    let { settings, engine } = await engineFor();
    expect(settings.project?.trusted).toBe(false);
    expect(settings.problems).toContainEqual(
      expect.objectContaining({
        file: join(cwd, ".codex/config.toml"),
        message: expect.stringContaining("not trusted yet"),
      }),
    );
    await fire(engine, bash("sudo ls"));
    expect(ran("project")).toBe(false);
    await trustProject({ cwd, home });
    ({ settings, engine } = await engineFor());
    expect(settings.project?.trusted).toBe(true);
    expect((await fire(engine, bash("sudo ls"))).action).toBe("block");
    expect(ran("project")).toBe(true);
  });

  it("asks for trust again when inline hooks appear, but not for a config.toml without them", async () => {
    write(join(cwd, ".claude/settings.json"), JSON.stringify({ hooks: {} }));
    write(
      join(cwd, ".claude/settings.local.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    await trustProject({ cwd, home });
    // Codex's own settings, no hooks: the project stays trusted, and nothing is reported.
    configToml(
      cwd,
      "\n[sandbox_workspace_write]\nnetwork_access = false\nlimit = 99999999999999999999\n",
    );
    let { settings } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.project?.trusted).toBe(true);
    configToml(cwd, preToolUse(policy("late")));
    ({ settings } = await engineFor());
    expect(settings.project?.trusted).toBe(false);
    expect(settings.project?.changed).toBe(true);
  });

  it("reports invalid TOML with the file, line and column; the other files still load", async () => {
    const file = write(join(home, ".codex/config.toml"), 'model = "x"\n[[hooks.PreToolUse]\n');
    write(
      join(home, ".codex/hooks.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    const { settings } = await engineFor();
    expect(settings.problems).toEqual([
      expect.objectContaining({
        file,
        line: 2,
        severity: "error",
        message: expect.stringMatching(/^invalid TOML at line 2, column \d+: /),
      }),
    ]);
    expect(settings.hooks.map((h) => h.event)).toEqual(["Stop"]);
  });

  const stopGroup = (command: string) =>
    `\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = ${str(command)}\n`;
  it.each([
    [
      "a timeout that is a string",
      preToolUse("true").replace("timeout = 30", 'timeout = "30"'),
      "hooks.PreToolUse[0].hooks[0].timeout",
    ],
    [
      "a timeout too large for a number",
      preToolUse("true").replace("timeout = 30", "timeout = 99999999999999999999"),
      "hooks.PreToolUse[0].hooks[0].timeout",
    ],
    [
      "a handler without command",
      '\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n',
      "hooks.PreToolUse[0].hooks[0].command",
    ],
    [
      "a handler of another type",
      '\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "prompt"\n',
      "hooks.PreToolUse[0].hooks[0].type",
    ],
  ])(
    "refuses a file with %s whole, naming the file and the TOML key path",
    async (_, body, path) => {
      const file = configToml(home, `${body}${stopGroup(policy("good"))}`);
      const { settings, engine } = await engineFor();
      expect(settings.problems).toContainEqual(
        expect.objectContaining({ file, path, severity: "error" }),
      );
      expect(settings.hooks).toEqual([]);
      await fire(engine, createEvent("Stop", { sessionId: "s1", stopHookActive: false }));
      expect(ran("good")).toBe(false);
    },
  );

  it("refuses a hooks key that is not a table, naming it", async () => {
    const file = configToml(home, 'hooks = "on"');
    const { settings } = await engineFor();
    expect(settings.problems).toEqual([
      expect.objectContaining({ file, path: "hooks", severity: "error" }),
    ]);
  });

  it("takes [hooks.state] as Codex's own record, not an event, and warns about unknown events", async () => {
    const file = configToml(
      home,
      `${preToolUse(policy("guard"))}
[hooks.state."abc123"]
enabled = true

[[hooks.AfterEverything]]
[[hooks.AfterEverything.hooks]]
type = "command"
command = "true"
`,
    );
    const { settings } = await engineFor();
    expect(settings.problems.map((p) => [p.file, p.path, p.severity])).toEqual([
      [file, "hooks.AfterEverything", "warning"],
    ]);
    expect(settings.hooks.map((h) => h.event)).toEqual(["PreToolUse"]);
  });

  it("is told by its path, or by fileFormat: codex for a named .toml file", async () => {
    expect(detectFormat("/r/.codex/config.toml")?.name).toBe("codex");
    expect(detectFormat("/r/config.toml")).toBeUndefined();
    const named = write(join(root, "team-hooks.toml"), preToolUse("true"));
    const settings = await loadHookSettings({
      cwd,
      home,
      defaults: false,
      files: [named],
      fileFormat: "codex",
    });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => h.origin?.event)).toEqual(["PreToolUse"]);
  });
});
