import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { loadHookSettings } from "../settings/load-hook-settings.js";
import { runCli } from "./run-cli.js";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-convert-"));
  mkdirSync(join(root, "home"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: MemoryIo = memoryIo({ cwd: root, home: join(root, "home"), env: {} });
  const code = await runCli(argv, io);
  return { code, out: io.out, err: io.err };
}

const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** `a3s-hooks test` on one file alone: the merged outcome of a Bash call. */
async function outcome(file: string, command: string): Promise<[string, string | null]> {
  const run = await cli(
    "test",
    "PreToolUse",
    "--settings",
    file,
    "--no-defaults",
    "--tool",
    "Bash",
    "--args",
    JSON.stringify({ command }),
    "--json",
  );
  const result = JSON.parse(run.out) as { action: string; reason: string | null };
  return [result.action, result.reason];
}

/** A Claude Code guard in node, reading `tool_input` and answering `permissionDecision`. */
const CLAUDE_GUARD = `let s = "";
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => {
  const input = JSON.parse(s);
  if (String(input.tool_input.command).startsWith("rm ")) {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",
      permissionDecision: "deny", permissionDecisionReason: "no rm from " + input.hook_event_name } }));
  }
});
`;

describe("a3s-hooks convert", () => {
  it("turns Claude Code's file into Codex's and back, keeping every hook's outcome", async () => {
    const guard = write(join(root, "guard.js"), CLAUDE_GUARD);
    const claude = write(join(root, "project/.claude/settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: `node ${guard}`, timeout: 20 }],
          },
        ],
        Stop: [{ hooks: [{ type: "command", command: "true" }] }],
      },
    });
    const codex = join(root, "project/.codex/hooks.json");
    const there = await cli("convert", claude, "--to", "codex", "--out", codex);
    expect(there.code, there.err).toBe(0);
    expect(there.err).toBe("Wrote 2 hook(s) in codex's format to project/.codex/hooks.json.\n");
    expect(await outcome(codex, "rm -rf x")).toEqual(await outcome(claude, "rm -rf x"));
    expect(await outcome(codex, "rm -rf x")).toEqual(["block", "no rm from PreToolUse"]);
    expect(await outcome(codex, "ls")).toEqual(["continue", null]);

    // Told by its path: --from codex.
    const back = await cli("convert", codex, "--to", "claude-code");
    expect(back.code, back.err).toBe(0);
    expect(back.err).toBe("");
    expect(JSON.parse(back.out)).toEqual(json(claude));
  });

  it("writes a Cursor exit-code guard as a Claude Code hook with the same outcome, naming what is lost", async () => {
    const cursor = write(join(root, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeShellExecution: [
          {
            command: `case "$(cat)" in *'"rm '*) echo "Cursor guard: no rm" >&2; exit 2;; esac`,
            timeout: 10,
          },
        ],
      },
    });
    const refused = await cli("convert", "--from", "cursor", "--to", "claude-code");
    expect(refused.code).toBe(1);
    expect(refused.out).toBe("");
    expect(refused.err).toContain(
      "lossy: .cursor/hooks.json hooks.beforeShellExecution[0].command: the command was written for Cursor's stdin and answers; Claude Code sends and reads its own, so only its exit codes keep their meaning",
    );
    expect(refused.err).toContain("nothing written. --allow-lossy writes");

    const out = join(root, "converted/settings.json");
    const done = await cli("convert", cursor, "--to", "claude-code", "--out", out, "--allow-lossy");
    expect(done.code, done.err).toBe(0);
    expect(json(out)).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: expect.stringContaining("exit 2"), timeout: 10 }],
          },
        ],
      },
    });
    expect(await outcome(out, "rm -rf x")).toEqual(["block", "Cursor guard: no rm"]);
    expect(await outcome(out, "rm -rf x")).toEqual(await outcome(cursor, "rm -rf x"));
    expect(await outcome(out, "ls")).toEqual(await outcome(cursor, "ls"));
  });

  it("translates Gemini CLI's tool names and milliseconds, and back again", async () => {
    const gemini = write(join(root, ".gemini/settings.json"), {
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command|write_file",
            hooks: [
              {
                type: "command",
                name: "guard",
                command: `echo "Gemini guard" >&2; exit 2`,
                timeout: 15000,
              },
            ],
          },
        ],
      },
    });
    const claude = join(root, "out/settings.json");
    const run = await cli(
      "convert",
      gemini,
      "--to",
      "claude-code",
      "--out",
      claude,
      "--allow-lossy",
    );
    expect(run.code, run.err).toBe(0);
    expect(json(claude)).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|Write",
            hooks: [
              {
                type: "command",
                command: `echo "Gemini guard" >&2; exit 2`,
                timeout: 15,
                name: "guard",
              },
            ],
          },
        ],
      },
    });
    expect(await outcome(claude, "ls")).toEqual(await outcome(gemini, "ls"));
    expect(await outcome(claude, "ls")).toEqual(["block", "Gemini guard"]);
    const back = await cli("convert", claude, "--to", "gemini", "--allow-lossy");
    expect(JSON.parse(back.out)).toEqual(json(gemini));
  });

  it("lists every part the target cannot say, with its JSON path, and writes nothing", async () => {
    const claude = write(join(root, "settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|Task",
            hooks: [{ type: "command", command: "exit 0", if: "Bash(git *)", async: true }],
          },
        ],
        Stop: [{ hooks: [{ type: "command", command: "true" }] }],
        PostToolUse: [{ hooks: [{ type: "http", url: "http://127.0.0.1:9/x" }] }],
      },
    });
    const out = join(root, "hooks.json");
    const run = await cli("convert", claude, "--to", "cursor", "--out", out);
    expect(run.code).toBe(1);
    expect(existsSync(out)).toBe(false);
    const lines = run.err.split("\n").filter((l) => l.startsWith("lossy: "));
    expect(lines.map((l) => l.split(": ")[1])).toEqual([
      "settings.json hooks.PreToolUse[0].hooks[0].if",
      "settings.json hooks.PreToolUse[0].hooks[0].async",
      "settings.json hooks.PreToolUse[0].matcher",
      "settings.json hooks.PreToolUse[0].hooks[0].command",
      "settings.json hooks.Stop[0].hooks[0].command",
      "settings.json hooks.PostToolUse[0].hooks[0].type",
    ]);
    expect(run.err).toContain(
      'Cursor has no "if" condition; left out, so the hook fires more often',
    );
    expect(run.err).toContain("Cursor has no PreToolUse hook for Task");
    expect(run.err).toContain("Cursor runs only command hooks, not http; left out");
    expect(run.err).toContain("6 part(s) cannot be said faithfully in cursor; nothing written.");

    const copilot = await cli("convert", claude, "--to", "copilot", "--allow-lossy");
    expect(copilot.code).toBe(0);
    expect(copilot.err).toContain(
      "lossy: settings.json hooks.Stop[0].hooks[0]: GitHub Copilot has no event for Claude Code's Stop (Stop here); left out",
    );
    expect(JSON.parse(copilot.out)).toEqual({
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: "exit 0", timeoutSec: 60 }] },
    });
  });

  it("writes a file every pair's target reads back without errors", async () => {
    const sources: Record<string, [string, unknown]> = {
      "claude-code": [
        ".claude/settings.json",
        {
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a" }] }] },
        },
      ],
      cursor: [
        ".cursor/hooks.json",
        { version: 1, hooks: { beforeShellExecution: [{ command: "a" }] } },
      ],
      gemini: [
        ".gemini/settings.json",
        {
          hooks: {
            BeforeTool: [
              { matcher: "run_shell_command", hooks: [{ type: "command", command: "a" }] },
            ],
          },
        },
      ],
      copilot: [
        ".github/hooks/a.json",
        { version: 1, hooks: { preToolUse: [{ type: "command", bash: "a" }] } },
      ],
      codex: [
        ".codex/hooks.json",
        {
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a" }] }] },
        },
      ],
    };
    for (const [from, [place, doc]] of Object.entries(sources)) {
      const file = write(join(root, from, place), doc);
      for (const [to, [targetPlace]] of Object.entries(sources)) {
        if (to === from) continue;
        const out = join(root, `${from}-to-${to}`, targetPlace);
        const run = await cli("convert", file, "--to", to, "--out", out, "--allow-lossy");
        expect(run.code, `${from} → ${to}: ${run.err}`).toBe(0);
        const settings = await loadHookSettings({
          cwd: root,
          home: join(root, "home"),
          files: [out],
          defaults: false,
        });
        expect(settings.problems, `${from} → ${to}`).toEqual([]);
        // Copilot's hook is for every tool: Cursor says that with each of its tool events.
        const hooks = settings.hooks.map((h) => [
          h.event,
          (h.definition as { command?: string }).command,
        ]);
        expect(hooks.length, `${from} → ${to}`).toBe(from === "copilot" && to === "cursor" ? 3 : 1);
        expect(new Set(hooks.map((h) => h.join(" "))), `${from} → ${to}`).toEqual(
          new Set(["PreToolUse a"]),
        );
      }
    }
  });

  it("refuses a bad format, an existing --out and a source with errors", async () => {
    const claude = write(join(root, "s.json"), {
      hooks: { Stop: [{ hooks: [{ type: "command" }] }] },
    });
    const bad = await cli("convert", claude, "--to", "vim");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(
      '--to: expected one of claude-code, cursor, gemini, copilot, codex, got "vim"',
    );
    const windsurf = await cli("convert", claude, "--to", "windsurf");
    expect(windsurf.code).toBe(1);
    expect(windsurf.err).toContain(
      "--to: Windsurf hook files are read and run, but convert does not translate them yet",
    );
    const kiroFile = write(join(root, ".kiro/hooks/k.json"), {});
    const kiro = await cli("convert", kiroFile, "--to", "claude-code");
    expect(kiro.code).toBe(1);
    expect(kiro.err).toContain("but convert does not translate them yet");
    const broken = await cli("convert", claude, "--to", "codex");
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/^error: s\.json: hooks\.Stop\[0\]\.hooks\[0\]/);
    const good = write(join(root, "g.json"), {
      hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] },
    });
    const taken = write(join(root, "taken.json"), "{}");
    const exists = await cli("convert", good, "--to", "codex", "--out", taken);
    expect(exists.code).toBe(1);
    expect(exists.err).toContain("--out: taken.json exists");
    expect(readFileSync(taken, "utf8")).toBe("{}");
  });
});
