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
 * `[hooks]` in `.codex/config.toml`, each
 * with a shell guard written the way its agent's docs show. Under the demo
 * agent, every hook fires on the same Bash call, each gets its own agent's stdin, and Cursor's
 * deny blocks the call by Cursor's rules.
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
  await trustProject({ cwd: work, home });
  const chat: ChildProcess = startCli(
    ["chat", "--workdir", work, "--permission", "allow", "--no-color"],
    { env: { HOME: home } },
  );
  const out = new LineWaiter(chat.stdout!);
  const closed = new Promise<number | null>((resolve) => chat.once("close", resolve));
  chat.stdin!.write("bash: echo formats\n");
  chat.stdin!.write("bash: rm -f nothing.txt\n");
  chat.stdin!.end();
  code = await closed;
  stdout = out.lines;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a project with Claude Code, Cursor, Gemini CLI, Copilot and Codex hook files, under the demo agent", () => {
  it("runs every format's hook on each Bash call, each with its agent's stdin", () => {
    expect(code).toBe(0);
    expect(logOf("claude").map((i) => [i.hook_event_name, i.tool_name])).toEqual([
      ["PreToolUse", "Bash"],
      ["PreToolUse", "Bash"],
    ]);
    expect(logOf("cursor").map((i) => [i.hook_event_name, i.command])).toEqual([
      ["beforeShellExecution", "echo formats"],
      ["beforeShellExecution", "rm -f nothing.txt"],
    ]);
    expect(logOf("gemini").map((i) => [i.hook_event_name, i.tool_name])).toEqual([
      ["BeforeTool", "run_shell_command"],
      ["BeforeTool", "run_shell_command"],
    ]);
    expect(
      logOf("copilot").map((i) => [i.toolName, JSON.parse(String(i.toolArgs)).command]),
    ).toEqual([
      ["bash", "echo formats"],
      ["bash", "rm -f nothing.txt"],
    ]);
    expect(
      logOf("codex").map((i) => [i.hook_event_name, i.tool_name, "transcript_path" in i]),
    ).toEqual([
      ["PreToolUse", "Bash", true],
      ["PreToolUse", "Bash", true],
    ]);
    expect(logOf("codex-toml").map((i) => [i.hook_event_name, i.tool_input])).toEqual([
      ["PreToolUse", { command: "echo formats" }],
      ["PreToolUse", { command: "rm -f nothing.txt" }],
    ]);
  });

  it("blocks the rm by Cursor's permission deny, with its agent_message as the reason", () => {
    const text = stdout.join("\n");
    expect(text).toContain("do not delete files");
    expect(text.match(/✖ blocked by a hook/g)).toHaveLength(1);
  });
});
