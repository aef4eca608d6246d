import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { HookError } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadHookSettings } from "./load-hook-settings.js";
import { trustProject } from "./project-trust.js";
import { formatProblem } from "./settings-problem.js";

/** How every template refusal ends: the ways to pass a value that no shell reads. */
const ALTERNATIVES =
  "; pass the value another way: the exec form (`command` with `args`, each value one argument, after a literal `--`), the event's JSON on the hook's stdin, or an environment variable the hook reads";

/**
 * A path that turns into something else the moment the loader first looks at it: right after a
 * `stat` of it, or right before an `open`.
 */
const swap = vi.hoisted(() => ({
  path: undefined as string | undefined,
  run: () => {},
}));
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const trigger = (path: unknown) => {
    if (swap.path === undefined || String(path) !== swap.path) return;
    swap.path = undefined;
    swap.run();
  };
  return {
    ...fs,
    stat: async (...args: Parameters<typeof fs.stat>) => {
      const st = await fs.stat(...args);
      trigger(args[0]);
      return st;
    },
    open: async (...args: Parameters<typeof fs.open>) => {
      trigger(args[0]);
      return fs.open(...args);
    },
  };
});

let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-settings-"));
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

const claude = (event: string, command: string, matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command }] }] },
});

const load = (extra: { files?: string[] } = {}) =>
  loadHookSettings({ cwd, home, managedSettings: [], ...extra });
const lines = (settings: Awaited<ReturnType<typeof load>>) =>
  settings.problems.map((p) => `${p.severity}: ${formatProblem(p, { cwd, home })}`);

describe("locations and precedence", () => {
  it("reads every location, hooks adding up in precedence order", async () => {
    write(join(home, ".claude/settings.json"), claude("PreToolUse", "echo user-claude"));
    write(join(home, ".config/cli-agent/settings.json"), claude("PreToolUse", "echo cli-agent"));
    write(join(home, ".config/agent/settings.json"), claude("PreToolUse", "echo user-agent"));
    write(join(cwd, ".claude/settings.json"), claude("PreToolUse", "echo project-claude"));
    write(join(cwd, ".claude/settings.local.json"), claude("PreToolUse", "echo local-claude"));
    write(join(cwd, ".config/agent/settings.json"), claude("PreToolUse", "echo project-agent"));
    write(join(cwd, ".config/agent/settings.local.json"), claude("PreToolUse", "echo local-agent"));
    const extra = write(join(root, "extra.json"), claude("PreToolUse", "echo explicit"));
    await trustProject({ cwd, home });
    const settings = await load({ files: [extra] });
    expect(settings.problems).toEqual([]);
    expect(settings.hooks.map((h) => h.definition.command)).toEqual([
      "echo explicit",
      "echo local-agent",
      "echo project-agent",
      "echo local-claude",
      "echo project-claude",
      "echo user-agent",
      "echo cli-agent",
      "echo user-claude",
    ]);
    expect(settings.hooks.map((h) => h.scope)).toEqual([
      "explicit",
      "project",
      "project",
      "project",
      "project",
      "user",
      "user",
      "user",
    ]);
    expect(settings.hooks.every((h) => h.trusted)).toBe(true);
    expect(settings.hooks[1]).toMatchObject({
      event: "PreToolUse",
      name: "echo local-agent",
      path: "hooks.PreToolUse[0].hooks[0]",
      source: join(settings.project!.dir, ".config/agent/settings.local.json"),
    });
  });

  it("takes each scalar from the first file that sets it", async () => {
    write(join(home, ".claude/settings.json"), {
      disableAllHooks: false,
      hooks: { maxHooksPerEvent: 3, failBehavior: "block", auditLevel: "verbose" },
    });
    const extra = write(join(root, "x.json"), { hooks: { maxHooksPerEvent: 7 } });
    const settings = await load({ files: [extra] });
    expect(settings.options).toEqual({
      maxHooksPerEvent: 7,
      failBehavior: "block",
      auditLevel: "verbose",
      disableAllHooks: false,
    });
    expect(settings.optionSources.maxHooksPerEvent).toBe(extra);
    expect(settings.optionSources.failBehavior).toBe(join(home, ".claude/settings.json"));
  });

  it("reads a file once when the working directory is the home directory, as a user file", async () => {
    write(join(home, ".claude/settings.json"), claude("Stop", "echo done"));
    const settings = await loadHookSettings({ cwd: home, home, managedSettings: [] });
    expect(settings.hooks).toHaveLength(1);
    expect(settings.hooks[0]).toMatchObject({ scope: "user", trusted: true });
  });

  it("reports a missing explicit file but not a missing default one", async () => {
    const settings = await load({ files: ["nope.json"] });
    expect(lines(settings)).toEqual(["error: nope.json: file not found"]);
    expect(settings.files.filter((f) => f.exists)).toEqual([]);
  });

  it("refuses a bad cwd with a typed error", async () => {
    await expect(loadHookSettings({ cwd: join(root, "missing") })).rejects.toThrow(
      /cwd: no such directory/,
    );
    const error = await loadHookSettings({ cwd: 42 as never }).catch((e: unknown) => e);
    expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
  });
});

describe("the three shapes", () => {
  it("reads Claude Code / the CLI-agent hooks specification groups, the hooks-system design named maps, lists and bare strings", async () => {
    const file = write(join(root, "shapes.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|Write",
            hooks: [
              { type: "command", command: "./a.sh", timeout: 5 },
              { type: "command", args: ["./b.py", "--strict"], env: { MODE: "x" } },
            ],
          },
        ],
        preToolUse: {
          "security-check": { command: "python check.py", timeout_secs: 30, matcher: "Bash" },
        },
        post_tool_use: { "audit-log": "echo audit" },
        sessionStart: ["echo one", { command: "echo two", working_directory: "sub" }],
        sessionEnd: "cleanup.sh",
        Stop: [{ matcher: "*", hooks: [{ type: "command", command: "echo stop" }] }],
        enabled: true,
        defaultTimeout: 5000,
      },
    });
    const settings = await loadHookSettings({ cwd, home, files: [file], defaults: false });
    expect(settings.problems).toEqual([]);
    expect(
      settings.hooks.map((h) => [h.event, h.matcher ?? "*", h.name, h.definition, h.path]),
    ).toEqual([
      [
        "PreToolUse",
        "Bash|Write",
        "./a.sh",
        { command: "./a.sh", timeout: 5 },
        "hooks.PreToolUse[0].hooks[0]",
      ],
      [
        "PreToolUse",
        "Bash|Write",
        "./b.py --strict",
        { args: ["./b.py", "--strict"], env: { MODE: "x" } },
        "hooks.PreToolUse[0].hooks[1]",
      ],
      [
        "PreToolUse",
        "Bash",
        "security-check",
        { command: "python check.py", timeout: 30 },
        'hooks.preToolUse["security-check"]',
      ],
      [
        "PostToolUse",
        "*",
        "audit-log",
        { command: "echo audit" },
        'hooks.post_tool_use["audit-log"]',
      ],
      ["SessionStart", "*", "echo one", { command: "echo one" }, "hooks.sessionStart[0]"],
      [
        "SessionStart",
        "*",
        "echo two",
        { command: "echo two", cwd: "sub" },
        "hooks.sessionStart[1]",
      ],
      ["SessionEnd", "*", "cleanup.sh", { command: "cleanup.sh" }, "hooks.sessionEnd"],
      ["Stop", "*", "echo stop", { command: "echo stop" }, "hooks.Stop[0].hooks[0]"],
    ]);
    expect(settings.options).toEqual({ enabled: true, defaultTimeout: 5000 });
  });
});

describe("problems", () => {
  it("name the file, the JSON path and the fault in a sentence; the rest still loads", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "./ok.sh" },
              { type: "command", command: "./slow.sh", timeout: "ten" },
            ],
          },
        ],
        PostToolUse: [{ matcher: "Write(", hooks: [{ type: "command", command: "./x.sh" }] }],
        PreToolUze: [{ hooks: [{ type: "command", command: "./typo.sh" }] }],
        Stop: [{ matcher: "Bash", hooks: [{ type: "command", command: "./stop.sh" }] }],
        Notification: [{ hooks: [{ type: "webhook", url: "http://127.0.0.1:1/" }] }],
        SessionEnd: [{ hooks: [{ command: "./a.sh", timout: 5 }] }],
        SessionStart: [{ hooks: [{ command: "echo {{nope}}" }, { command: "echo ''" }] }],
        UserPromptSubmit: 42,
        maxHooksPerEvent: 0,
      },
    });
    const settings = await load();
    expect(lines(settings)).toEqual([
      'error: ~/.claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout: expected a positive number, got "ten"',
      'error: ~/.claude/settings.json: hooks.PostToolUse[0].matcher: invalid regular expression "Write(": Invalid regular expression: /Write(/: Unterminated group',
      'warning: ~/.claude/settings.json: hooks.PreToolUze: unknown event name "PreToolUze" (did you mean "PreToolUse"?); its hooks are ignored',
      "warning: ~/.claude/settings.json: hooks.Stop[0].matcher: Stop has nothing to match against; the matcher is ignored",
      'error: ~/.claude/settings.json: hooks.Notification[0].hooks[0].type: expected one of "command", "http", "prompt", "agent", "mcp_tool", got "webhook" (this hook does not load)',
      'warning: ~/.claude/settings.json: hooks.SessionEnd[0].hooks[0].timout: unknown field "timout" (ignored)',
      "error: ~/.claude/settings.json: hooks.SessionStart[0].hooks[0].command: unknown variable {{nope}}; known variables: tool_name, tool_args, result, error, message, timestamp, session_id, user_input, hook_event_name, event, cwd",
      "error: ~/.claude/settings.json: hooks.UserPromptSubmit: expected an array of hooks, an object of named hooks or a command string, got 42",
      "error: ~/.claude/settings.json: hooks.maxHooksPerEvent: expected a positive whole number, got 0",
    ]);
    expect(settings.hooks.map((h) => h.definition.command)).toEqual([
      "./ok.sh",
      "./stop.sh",
      "./a.sh",
      "echo ''",
    ]);
  });

  it("report a NUL in a path and a bad {{variable}} in args at the field that holds it", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        SessionStart: [
          {
            hooks: [
              { command: "./a.sh", working_directory: "sub\0dir" },
              { command: "./b.sh", cwd: "sub\0dir" },
              { args: ["./c.sh", "{{nope}}"] },
              { args: ["{{tool_name}}"] },
              { command: "./ok.sh", working_directory: "sub" },
            ],
          },
        ],
      },
    });
    const settings = await load();
    expect(lines(settings)).toEqual([
      'error: ~/.claude/settings.json: hooks.SessionStart[0].hooks[0].working_directory: expected a path without NUL bytes, got "sub\\u0000dir"',
      'error: ~/.claude/settings.json: hooks.SessionStart[0].hooks[1].cwd: expected a path without NUL bytes, got "sub\\u0000dir"',
      "error: ~/.claude/settings.json: hooks.SessionStart[0].hooks[2].args: unknown variable {{nope}}; known variables: tool_name, tool_args, result, error, message, timestamp, session_id, user_input, hook_event_name, event, cwd",
      "error: ~/.claude/settings.json: hooks.SessionStart[0].hooks[3].args: the program name cannot contain {{variables}}",
    ]);
    expect(settings.hooks.map((h) => h.definition)).toEqual([{ command: "./ok.sh", cwd: "sub" }]);
  });

  it("refuse a {{variable}} no quoting can protect, naming the file, the hook and the variable", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { command: 'echo "x\\{{tool_args.command}}"' },
              { command: "echo x\\{{tool_args.command}}" },
              // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a JS template.
              { command: 'echo "${{tool_args.command}}"' },
              // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a JS template.
              { command: "echo ${{tool_args.command}}" },
              { command: "{{tool_name}} --version" },
              { command: "echo {{tool_args.command}}" },
            ],
          },
        ],
      },
    });
    const settings = await load();
    const at = (i: number) =>
      `error: ~/.claude/settings.json: hooks.PreToolUse[0].hooks[${i}].command:`;
    const backslash =
      "{{tool_args.command}} cannot be quoted safely: a placeholder right after a backslash, which would escape the value's quoting" +
      ALTERNATIVES;
    const dollar =
      "{{tool_args.command}} cannot be quoted safely: a placeholder right after `$`, which would join the value to an expansion or quote" +
      ALTERNATIVES;
    expect(lines(settings)).toEqual([
      `${at(0)} template: ${backslash}`,
      `${at(1)} template: ${backslash}`,
      `${at(2)} template: ${dollar}`,
      `${at(3)} template: ${dollar}`,
      `${at(4)} template: {{tool_name}} cannot be quoted safely: a placeholder in a command name (the value would choose the program)${ALTERNATIVES}`,
    ]);
    expect(settings.hooks.map((h) => h.definition.command)).toEqual(["echo {{tool_args.command}}"]);
  });

  it("give the line and column of invalid JSON, and other files still load", async () => {
    write(join(cwd, ".claude/settings.json"), '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n');
    write(join(home, ".claude/settings.json"), claude("Stop", "echo ok"));
    const settings = await load();
    expect(lines(settings)).toEqual([
      'error: .claude/settings.json:3:14: invalid JSON at line 3, column 14: unexpected ","; expected a value',
    ]);
    expect(settings.problems[0]).toMatchObject({ line: 3, column: 14 });
    expect(settings.hooks.map((h) => h.definition.command)).toEqual(["echo ok"]);
  });

  it("refuse hostile files: not an object, huge, a FIFO, a directory, a deep nest", async () => {
    const files = {
      array: write(join(root, "array.json"), "[1, 2]"),
      huge: write(join(root, "huge.json"), `{"x": "${"a".repeat(5 * 1024 * 1024)}"}`),
      dir: join(root, "dir.json"),
      fifo: join(root, "fifo.json"),
      deep: write(
        join(root, "deep.json"),
        `{"hooks": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      ),
      proto: write(
        join(root, "proto.json"),
        '{"hooks": {"__proto__": [{"hooks": []}], "constructor": "x"}}',
      ),
    };
    mkdirSync(files.dir);
    execFileSync("mkfifo", [files.fifo]);
    const settings = await loadHookSettings({
      cwd,
      home,
      files: Object.values(files),
      defaults: false,
    });
    expect(lines(settings).map((l) => l.replace(root, "<root>"))).toEqual([
      "error: <root>/array.json: expected a JSON object, got [1,2]",
      `error: <root>/huge.json: the file is ${5 * 1024 * 1024 + 9} bytes; the limit is 4194304`,
      "error: <root>/dir.json: not a regular file",
      "error: <root>/fifo.json: not a regular file",
      "error: <root>/deep.json: hooks: expected an object mapping event names to hooks, got [object Array]",
      'warning: <root>/proto.json: hooks.__proto__: unknown event name "__proto__"; its hooks are ignored',
      'warning: <root>/proto.json: hooks.constructor: unknown event name "constructor"; its hooks are ignored',
    ]);
    expect(({} as Record<string, unknown>).hooks).toBeUndefined();
  });

  it("never read a file swapped for a FIFO after it was looked at", async () => {
    const path = write(join(root, "swapped.json"), claude("Stop", "echo regular"));
    let writer: ChildProcess | undefined;
    swap.path = path;
    swap.run = () => {
      unlinkSync(path);
      execFileSync("mkfifo", [path]);
      // Blocks in open until a reader comes; a loader that reads the FIFO gets this hook.
      writer = spawn(
        "sh",
        ["-c", 'printf %s "$1" > "$2"', "sh", JSON.stringify(claude("Stop", "echo fifo")), path],
        {
          stdio: "ignore",
        },
      );
    };
    try {
      const settings = await loadHookSettings({ cwd, home, files: [path], defaults: false });
      expect(swap.path).toBeUndefined();
      expect(settings.hooks.map((h) => h.definition.command)).not.toContain("echo fifo");
      expect(lines(settings).map((l) => l.replace(root, "<root>"))).toEqual([
        "error: <root>/swapped.json: not a regular file",
      ]);
    } finally {
      writer?.kill("SIGKILL");
    }
  });

  it("follow a symlinked settings file and still call it a project file", async () => {
    const target = write(join(root, "elsewhere.json"), claude("Stop", "echo linked"));
    mkdirSync(join(cwd, ".claude"));
    symlinkSync(target, join(cwd, ".claude/settings.json"));
    const settings = await load();
    expect(settings.hooks[0]).toMatchObject({ scope: "project", trusted: false });
  });
});
