import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

/**
 * Every format at once, in one project and the home directory, plus a managed file: the order
 * docs/formats/README.md states is the order `list` shows, the order additional context is
 * joined in, and the order that decides whose block wins.
 */
let root: string;
let io: () => MemoryIo;

/** Each hook answers in its own agent's words: context named by its label, or a deny. */
const ANSWER_SH = `#!/bin/sh
format=$1
label=$2
cat > /dev/null
if grep -qx "$label" "$(dirname "$0")/blockers" 2>/dev/null; then
  case $format in
    claude) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"'"$label"'"}}' ;;
    cursor) echo '{"permission":"deny","agent_message":"'"$label"'"}' ;;
    gemini) echo '{"decision":"deny","reason":"'"$label"'"}' ;;
    copilot) echo '{"permissionDecision":"deny","permissionDecisionReason":"'"$label"'"}' ;;
    exit2) echo "$label" >&2; exit 2 ;;
  esac
else
  case $format in
    claude) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"'"$label"'"}}' ;;
    cursor) echo '{"permission":"allow","agent_message":"'"$label"'"}' ;;
    gemini) echo '{"hookSpecificOutput":{"additionalContext":"'"$label"'"}}' ;;
    copilot) echo '{"permissionDecision":"allow"}' ;;
  esac
fi
`;

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
}

/** The files of every format in one directory (the project, or home), labelled by `scope`. */
function writeFormats(dir: string, scope: string, copilotDir: string): void {
  const run = (format: string, name: string) =>
    `sh '${join(root, "answer.sh")}' ${format} ${scope}-${name}`;
  const claudeGroup = (name: string) => ({
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: run("claude", name) }] }],
  });
  write(join(dir, ".claude/settings.json"), { hooks: claudeGroup("claude") });
  write(join(dir, ".cursor/hooks.json"), {
    version: 1,
    hooks: { beforeShellExecution: [{ command: run("cursor", "cursor") }] },
  });
  write(join(dir, ".gemini/settings.json"), {
    hooks: {
      BeforeTool: [
        {
          matcher: "run_shell_command",
          hooks: [{ type: "command", command: run("gemini", "gemini") }],
        },
      ],
    },
  });
  write(join(dir, copilotDir, "policy.json"), {
    version: 1,
    hooks: { preToolUse: [{ type: "command", bash: run("copilot", "copilot") }] },
  });
  // Codex speaks Claude Code's answers.
  write(join(dir, ".codex/hooks.json"), { hooks: claudeGroup("codex") });
  // Windsurf and Kiro read exit codes only: exit 2 blocks with stderr, nothing adds context.
  write(join(dir, dir.endsWith("home") ? ".codeium/windsurf/hooks.json" : ".windsurf/hooks.json"), {
    hooks: { pre_run_command: [{ command: run("exit2", "windsurf") }] },
  });
  write(join(dir, ".kiro/hooks/policy.json"), {
    version: "v1",
    hooks: [
      {
        name: "order",
        trigger: "PreToolUse",
        matcher: "execute_bash",
        action: { type: "command", command: run("exit2", "kiro") },
      },
    ],
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "a3s-format-order-"));
  write(join(root, "answer.sh"), ANSWER_SH);
  const repo = join(root, "repo");
  const home = join(root, "home");
  writeFormats(repo, "project", ".github/hooks");
  writeFormats(home, "user", ".copilot/hooks");
  write(join(root, "managed/managed-settings.json"), {
    hooks: {
      // Fifteen hooks on one event: past the default limit of ten.
      maxHooksPerEvent: 20,
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `sh '${join(root, "answer.sh")}' claude managed` }],
        },
      ],
    },
  });
  io = () =>
    memoryIo({
      cwd: repo,
      home,
      managedSettings: [join(root, "managed/managed-settings.json")],
      env: {},
    });
  const trust = io();
  expect(await runCli(["trust"], trust), trust.err).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The order of docs/formats/README.md: scope first, then ours, then each format in list order. */
const ORDER = [
  "managed",
  ...["project", "user"].flatMap((scope) =>
    ["claude", "cursor", "gemini", "copilot", "codex", "windsurf", "kiro"].map(
      (f) => `${scope}-${f}`,
    ),
  ),
];

const labelOf = (command: string) => command.split(" ").at(-1);

async function fire(blockers: string[]): Promise<Record<string, unknown>> {
  writeFileSync(join(root, "blockers"), blockers.map((b) => `${b}\n`).join(""));
  const cli = io();
  const code = await runCli(
    ["test", "PreToolUse", "--tool", "Bash", "--args", '{"command":"ls"}', "--json"],
    cli,
  );
  expect(code, cli.err).toBe(blockers.length > 0 ? 2 : 0);
  return JSON.parse(cli.out) as Record<string, unknown>;
}

describe("every format in one project: the stated order", () => {
  it("lists the hooks by scope, then ours, Cursor, Gemini CLI, Copilot, Codex, Windsurf, Kiro", async () => {
    const cli = io();
    expect(await runCli(["list", "--json"], cli), cli.err).toBe(0);
    const { hooks, skipped } = JSON.parse(cli.out) as {
      hooks: { command: string; scope: string; format?: string }[];
      skipped: unknown[];
    };
    expect(skipped).toEqual([]);
    expect(hooks.map((h) => labelOf(h.command))).toEqual(ORDER);
    expect(hooks.map((h) => h.format ?? "claude-code").slice(0, 8)).toEqual([
      "claude-code",
      "claude-code",
      "cursor",
      "gemini",
      "copilot",
      "codex",
      "windsurf",
      "kiro",
    ]);
  });

  it("joins every hook's context in that order (Copilot, Windsurf and Kiro read none)", async () => {
    const result = await fire([]);
    expect(result.action).toBe("continue");
    expect(String(result.additionalContext).split("\n")).toEqual(
      ORDER.filter((l) => !/-(copilot|windsurf|kiro)$/.test(l)),
    );
  });

  it("lets the first block in that order win, whatever format it speaks", async () => {
    expect((await fire([...ORDER].reverse())).reason).toBe("managed");
    expect((await fire(["user-claude", "project-copilot", "user-codex"])).reason).toBe(
      "project-copilot",
    );
    expect((await fire(["user-codex", "project-codex", "user-gemini"])).reason).toBe(
      "project-codex",
    );
    expect((await fire(["user-gemini", "user-cursor"])).reason).toBe("user-cursor");
    expect((await fire(["user-kiro", "project-windsurf", "user-claude"])).reason).toBe(
      "project-windsurf",
    );
    expect((await fire(["user-kiro", "user-windsurf"])).reason).toBe("user-windsurf");
  });
});
