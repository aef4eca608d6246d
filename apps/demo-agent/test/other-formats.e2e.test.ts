import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { trustProject } from "@a3s-lab/hooks-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineWaiter, startCli } from "./cli-process.js";

/**
 * One project holding a Claude Code settings file, a Cursor `hooks.json`, a Gemini CLI
 * `settings.json`, a GitHub Copilot `.github/hooks/` file, a Codex `.codex/hooks.json` and
 * `[hooks]` in `.codex/config.toml`, a Windsurf `.windsurf/hooks.json` and a Kiro
 * `.kiro/hooks/` file, each
 * with a shell guard written the way its agent's docs show. Under the demo
 * agent, every hook fires on the same Bash call, each gets its own agent's stdin, and Cursor's
 * deny and Windsurf's exit code 2 block their calls by their own rules.
 */
let dir: string;
let stdout: string[];
let code: number | null;

const logOf = (name: string) =>
  readFileSync(path.join(dir, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "demo-formats-")));
  const work = path.join(dir, "work");
  const home = path.join(dir, "home");
  mkdirSync(home, { recursive: true });
  const log = (name: string) => `{ cat; echo; } >> '${path.join(dir, `${name}.jsonl`)}'`;
  write(
    path.join(work, ".claude/settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: log("claude") }] }],
      },
    }),
  );
  const cursorGuard = path.join(dir, "cursor-guard.sh");
  write(
    cursorGuard,
    `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> '${path.join(dir, "cursor.jsonl")}'
case "$input" in
  *'"command":"rm '*) echo '{"permission":"deny","agent_message":"do not delete files"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
`,
  );
  write(
    path.join(work, ".cursor/hooks.json"),
    JSON.stringify({
      version: 1,
      hooks: { beforeShellExecution: [{ command: `sh '${cursorGuard}'` }] },
    }),
  );
  write(
    path.join(work, ".gemini/settings.json"),
    JSON.stringify({
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [{ type: "command", command: `${log("gemini")}; echo '{}'` }],
          },
        ],
      },
    }),
  );
  write(
    path.join(work, ".github/hooks/audit.json"),
    JSON.stringify({
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: log("copilot") }] },
    }),
  );
  write(
    path.join(work, ".codex/hooks.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: log("codex"), timeout: 30 }] },
        ],
      },
    }),
  );
  // Codex's other place: inline [hooks] in config.toml, beside its other settings.
  write(
    path.join(work, ".codex/config.toml"),
    `model = "gpt-5-codex"

[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = ${JSON.stringify(log("codex-toml"))}
timeout = 30
`,
  );
  // Windsurf's Cascade: a pre_run_command guard that blocks by exit code 2, as its docs show.
  const windsurfGuard = path.join(dir, "windsurf-guard.sh");
  write(
    windsurfGuard,
    `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> '${path.join(dir, "windsurf.jsonl")}'
case "$input" in
  *'"command_line":"curl '*) echo "no network from Cascade" >&2; exit 2 ;;
esac
exit 0
`,
  );
  write(
    path.join(work, ".windsurf/hooks.json"),
    JSON.stringify({
      hooks: { pre_run_command: [{ command: `sh '${windsurfGuard}'`, show_output: true }] },
    }),
  );
  // Kiro: a command hook in .kiro/hooks/, matched on Kiro's own tool name.
  write(
    path.join(work, ".kiro/hooks/audit.json"),
    JSON.stringify({
      version: "v1",
      hooks: [
        {
          name: "audit-shell",
          trigger: "PreToolUse",
          matcher: "execute_bash",
          action: { type: "command", command: log("kiro") },
        },
      ],
    }),
  );
  await trustProject({ cwd: work, home });
  const chat: ChildProcess = startCli(
    ["chat", "--workdir", work, "--permission", "allow", "--no-color"],
    { env: { HOME: home } },
  );
  const out = new LineWaiter(chat.stdout!);
  const closed = new Promise<number | null>((resolve) => chat.once("close", resolve));
  chat.stdin!.write("bash: echo formats\n");
  chat.stdin!.write("bash: rm -f nothing.txt\n");
  chat.stdin!.write("bash: curl example.invalid\n");
  chat.stdin!.end();
  code = await closed;
  stdout = out.lines;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a project with Claude Code, Cursor, Gemini CLI, Copilot, Codex, Windsurf and Kiro hook files, under the demo agent", () => {
  const commands = ["echo formats", "rm -f nothing.txt", "curl example.invalid"];
  it("runs every format's hook on each Bash call, each with its agent's stdin", () => {
    expect(code).toBe(0);
    expect(logOf("claude").map((i) => [i.hook_event_name, i.tool_name])).toEqual(
      commands.map(() => ["PreToolUse", "Bash"]),
    );
    expect(logOf("cursor").map((i) => [i.hook_event_name, i.command])).toEqual(
      commands.map((c) => ["beforeShellExecution", c]),
    );
    expect(logOf("gemini").map((i) => [i.hook_event_name, i.tool_name])).toEqual(
      commands.map(() => ["BeforeTool", "run_shell_command"]),
    );
    expect(
      logOf("copilot").map((i) => [i.toolName, JSON.parse(String(i.toolArgs)).command]),
    ).toEqual(commands.map((c) => ["bash", c]));
    expect(
      logOf("codex").map((i) => [i.hook_event_name, i.tool_name, "transcript_path" in i]),
    ).toEqual(commands.map(() => ["PreToolUse", "Bash", true]));
    expect(logOf("codex-toml").map((i) => [i.hook_event_name, i.tool_input])).toEqual(
      commands.map((c) => ["PreToolUse", { command: c }]),
    );
    expect(
      logOf("windsurf").map((i) => [
        i.agent_action_name,
        (i.tool_info as { command_line: string }).command_line,
      ]),
    ).toEqual(commands.map((c) => ["pre_run_command", c]));
    expect(logOf("kiro").map((i) => [i.hook_event_name, i.tool_name, i.tool_input])).toEqual(
      commands.map((c) => ["PreToolUse", "execute_bash", { command: c }]),
    );
  });

  it("blocks the rm by Cursor's permission deny and the curl by Windsurf's exit code 2", () => {
    const text = stdout.join("\n");
    expect(text).toContain("do not delete files");
    expect(text).toContain("no network from Cascade");
    expect(text.match(/✖ blocked by a hook/g)).toHaveLength(2);
  });
});
