import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-formats-cli-"));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "repo"));
  io = memoryIo({
    cwd: join(root, "repo"),
    home: join(root, "home"),
    managedSettings: [],
    env: {},
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** A Cursor shell guard as Cursor's docs write them: read stdin, answer `permission`. */
const CURSOR_GUARD_SH = `#!/bin/sh
input=$(cat)
case "$input" in
  *'"command":"rm '*) echo '{"permission":"deny","user_message":"rm is off","agent_message":"do not delete files"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
`;

/** The same policy for Gemini CLI, in node: `decision` and `reason`. */
const GEMINI_GUARD_JS = `let s = "";
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => {
  const input = JSON.parse(s);
  if (String(input.tool_input.command).startsWith("rm ")) {
    process.stdout.write(JSON.stringify({ decision: "deny", reason: "Gemini says no: " + input.tool_name }));
  } else process.stdout.write("{}");
});
`;

function cursorFile(path: string): string {
  const guard = write(join(root, "cursor-guard.sh"), CURSOR_GUARD_SH);
  return write(
    path,
    JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: `sh ${guard}` }] } }),
  );
}

function geminiFile(path: string, extra: Record<string, unknown> = {}): string {
  const guard = write(join(root, "gemini-guard.js"), GEMINI_GUARD_JS);
  return write(
    path,
    JSON.stringify({
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [{ type: "command", command: `node ${guard}`, ...extra }],
          },
        ],
      },
    }),
  );
}

const testArgs = (command: string) => ["--tool", "Bash", "--args", JSON.stringify({ command })];

describe("a3s-hooks with other agents' files", () => {
  it("tests a Cursor hooks.json told by its path: block and allow", async () => {
    const file = cursorFile(join(root, "elsewhere/.cursor/hooks.json"));
    const base = ["test", "PreToolUse", "--settings", file, "--no-defaults"];
    expect(await runCli([...base, ...testArgs("rm -rf build")], io)).toBe(2);
    expect(io.out).toContain("do not delete files");
    io.out = "";
    expect(await runCli([...base, ...testArgs("ls"), "--json"], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ action: "continue", permission: "allow" });
  });

  it("tests a Gemini file named anything with --format gemini", async () => {
    const file = geminiFile(join(root, "policy.json"));
    const base = ["test", "PreToolUse", "--settings", file, "--format", "gemini", "--no-defaults"];
    expect(await runCli([...base, ...testArgs("rm x")], io)).toBe(2);
    expect(io.out).toContain("Gemini says no: run_shell_command");
    io.out = "";
    // Without --format the same file is ours, and its event names are not ours.
    expect(await runCli(["validate", "--settings", file, "--no-defaults"], io)).toBe(0);
    expect(io.out).toContain('"BeforeTool"');
  });

  it("reports a Gemini hook's timeout as a failure that does not block", async () => {
    const slow = write(join(root, "slow.sh"), "#!/bin/sh\ncat >/dev/null\nexec sleep 30\n");
    const file = write(
      join(root, "repo/.gemini/settings.json"),
      JSON.stringify({
        hooks: {
          BeforeTool: [{ hooks: [{ type: "command", command: `sh ${slow}`, timeout: 300 }] }],
        },
      }),
    );
    const code = await runCli(
      ["test", "PreToolUse", "--settings", file, "--no-defaults", ...testArgs("ls"), "--json"],
      io,
    );
    expect(code).toBe(0);
    const result = JSON.parse(io.out) as { action: string; hooks: { status: string }[] };
    expect(result.action).toBe("continue");
    expect(result.hooks.map((h) => h.status)).toEqual(["timeout"]);
  });

  it("lists each hook's format and origin, and validates the project's files", async () => {
    cursorFile(join(root, "home/.cursor/hooks.json"));
    geminiFile(join(root, "home/.gemini/settings.json"), { name: "shell-guard" });
    expect(await runCli(["list"], io)).toBe(0);
    expect(io.out).toContain("{cursor beforeShellExecution}");
    expect(io.out).toContain("from user Cursor hooks");
    expect(io.out).toContain("PreToolUse [run_shell_command]");
    expect(io.out).toContain("{gemini BeforeTool}");
    expect(io.out).toContain("from user Gemini CLI hooks");
    io.out = "";
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const listed = JSON.parse(io.out) as { hooks: { format?: string }[] };
    expect(listed.hooks.map((h) => h.format).sort()).toEqual(["cursor", "gemini"]);
  });

  it("tests a Codex file named anything with --format codex, and lists it as Codex's", async () => {
    const guard = write(
      join(root, "codex-guard.sh"),
      `#!/usr/bin/env bash\ncat >/dev/null\necho 'Codex says no' >&2\nexit 2\n`,
    );
    const file = write(
      join(root, "codex-policy.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `bash ${guard}`, timeout: 10 }],
            },
          ],
        },
      }),
    );
    const base = ["test", "PreToolUse", "--settings", file, "--format", "codex", "--no-defaults"];
    expect(await runCli([...base, ...testArgs("rm x")], io)).toBe(2);
    expect(io.out).toContain("Codex says no");
    io.out = "";
    write(join(root, "home/.codex/hooks.json"), readFileSync(file, "utf8"));
    expect(await runCli(["list"], io)).toBe(0);
    expect(io.out).toContain("{codex PreToolUse}");
    expect(io.out).toContain("from user Codex hooks");
    io.out = "";
    expect(await runCli(["validate", "--format", "notepad"], io)).toBe(1);
    expect(io.err).toContain('"codex"');
  });

  it("tests Codex's config.toml [hooks] told by its path, and validates it by TOML key path", async () => {
    const guard = write(
      join(root, "codex-policy.py"),
      `import json, sys
data = json.load(sys.stdin)
if data["tool_input"]["command"].startswith("rm "):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "Codex TOML says no"}}))
`,
    );
    const toml = (timeout: string) => `model = "gpt-5-codex"

[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "/usr/bin/python3 ${guard}"
timeout = ${timeout}
statusMessage = "Checking Bash command"
`;
    const file = write(join(root, "elsewhere/.codex/config.toml"), toml("30"));
    const base = ["test", "PreToolUse", "--settings", file, "--no-defaults"];
    expect(await runCli([...base, ...testArgs("rm -rf build")], io)).toBe(2);
    expect(io.out).toContain("Codex TOML says no");
    io.out = "";
    expect(await runCli([...base, ...testArgs("ls"), "--json"], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ action: "continue" });
    io.out = "";
    write(file, toml('"30"'));
    expect(await runCli(["validate", "--settings", file, "--no-defaults"], io)).toBe(1);
    expect(io.out + io.err).toContain("hooks.PreToolUse[0].hooks[0].timeout");
    io.out = "";
    io.err = "";
    write(file, "[[hooks.PreToolUse]\n");
    expect(await runCli(["validate", "--settings", file, "--no-defaults"], io)).toBe(1);
    expect(io.out + io.err).toContain("invalid TOML at line 1");
  });

  it("tests a Windsurf hooks.json told by its path: exit 2 blocks, and list shows its origin", async () => {
    const guard = write(
      join(root, "windsurf-guard.sh"),
      `#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *'"command_line":"rm '*) echo "Windsurf says no" >&2; exit 2 ;;
esac
exit 0
`,
    );
    const file = write(
      join(root, "home/.codeium/windsurf/hooks.json"),
      JSON.stringify({
        hooks: { pre_run_command: [{ command: `bash ${guard}`, show_output: true }] },
      }),
    );
    const base = ["test", "PreToolUse", "--settings", file, "--no-defaults"];
    expect(await runCli([...base, ...testArgs("rm -rf build")], io)).toBe(2);
    expect(io.out).toContain("Windsurf says no");
    io.out = "";
    expect(await runCli([...base, ...testArgs("ls"), "--json"], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ action: "continue" });
    io.out = "";
    expect(await runCli(["list"], io)).toBe(0);
    expect(io.out).toContain("{windsurf pre_run_command}");
    expect(io.out).toContain("from user Windsurf hooks");
  });

  it("refuses an unknown --format, naming the flag", async () => {
    expect(await runCli(["validate", "--format", "notepad"], io)).toBe(1);
    expect(io.err).toContain("--format:");
    expect(io.err).toContain('"cursor"');
  });
});
