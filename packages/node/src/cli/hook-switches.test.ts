import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let repo: string;
let home: string;
let managed: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-hook-switches-"));
  repo = join(root, "repo");
  home = join(root, "home");
  managed = join(root, "managed/managed-settings.json");
  mkdirSync(repo, { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: MemoryIo = memoryIo({ cwd: repo, home, managedSettings: [managed], env: {} });
  const code = await runCli(argv, io);
  return { code, out: io.out, err: io.err };
}

interface Listed {
  id: string;
  command: string;
  format?: string;
  scope: string;
  disabled?: boolean;
  reason?: string;
}

async function list(): Promise<{ hooks: Listed[]; skipped: Listed[] }> {
  const { code, out, err } = await cli("list", "--json");
  expect(code, err).toBe(0);
  return JSON.parse(out) as { hooks: Listed[]; skipped: Listed[] };
}

const idOf = (hooks: Listed[], text: string) => {
  const found = hooks.filter((h) => h.command.includes(text));
  expect(found, text).toHaveLength(1);
  return found[0]!.id;
};

const rm = ["test", "PreToolUse", "--tool", "Bash", "--args", '{"command":"rm -rf x"}', "--json"];

/** A Cursor guard kept in the project, as Cursor's docs keep theirs: denies every shell call. */
function cursorProject(command = "sh .cursor/deny.sh"): void {
  write(
    join(repo, ".cursor/deny.sh"),
    `#!/bin/sh\ncat > /dev/null\necho '{"permission":"deny","agent_message":"cursor says no"}'\n`,
  );
  write(join(repo, ".cursor/hooks.json"), {
    version: 1,
    hooks: { beforeShellExecution: [{ command }] },
  });
  write(join(repo, ".claude/settings.json"), {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 2" }] }],
    },
  });
}

describe("a3s-hooks trust --hook ID", () => {
  it("trusts one project hook of another format; the others stay untrusted", async () => {
    cursorProject();
    const before = await list();
    expect(before.hooks).toEqual([]);
    const cursorId = idOf(before.skipped, "deny.sh");
    expect(cursorId).toMatch(/^[0-9a-f]{12}$/);
    expect((await cli("list")).out).toContain(`(id ${cursorId})`);

    const trusted = await cli("trust", "--hook", cursorId.slice(0, 6));
    expect(trusted.code, trusted.err).toBe(0);
    expect(trusted.out).toContain(`Trusted hook ${cursorId}:`);
    expect(trusted.out).toMatch(/Project files it runs:\n {2}\.cursor\/deny\.sh sha256:/);

    const after = await list();
    expect(after.hooks.map((h) => [h.id, h.format])).toEqual([[cursorId, "cursor"]]);
    expect(after.skipped.map((h) => [h.command, h.reason])).toEqual([["exit 2", "untrusted"]]);
    const fired = await cli(...rm);
    expect(fired.code).toBe(2);
    expect(JSON.parse(fired.out).reason).toBe("cursor says no");
  });

  it("needs trust again when the hook or the script it runs is edited", async () => {
    cursorProject();
    const id = idOf((await list()).skipped, "deny.sh");
    expect((await cli("trust", "--hook", id)).code).toBe(0);
    expect((await list()).hooks).toHaveLength(1);

    write(join(repo, ".cursor/deny.sh"), "#!/bin/sh\ncat > /dev/null\necho '{}'\n");
    expect((await list()).hooks).toEqual([]);

    cursorProject("sh .cursor/deny.sh # edited");
    const { skipped } = await list();
    const edited = idOf(skipped, "deny.sh");
    expect(edited).not.toBe(id);
    expect(skipped.find((h) => h.id === edited)?.reason).toBe("untrusted");
  });

  it("forgets one hook's trust with --revoke", async () => {
    cursorProject();
    const id = idOf((await list()).skipped, "deny.sh");
    await cli("trust", "--hook", id);
    expect((await cli("trust", "--hook", id, "--revoke")).out).toBe(
      `Hook ${id} is no longer trusted on its own.\n`,
    );
    expect((await list()).hooks).toEqual([]);
  });

  it("names a bad or unknown id, with a hint", async () => {
    cursorProject();
    const bad = await cli("trust", "--hook", "zz");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('hook id: expected the 12 hex digits "a3s-hooks list" shows');
    const unknown = await cli("trust", "--hook", "abcdef123456");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("no hook has the id abcdef123456");
    expect(unknown.err).toContain('hint: run "a3s-hooks list"');
  });
});

describe("a3s-hooks disable ID / enable ID", () => {
  /** One deny-everything hook in each format, in the user's home (they need no trust). */
  function everyFormatAtHome(): void {
    const deny = (name: string) => `echo ${name} >&2; exit 2`;
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: deny("claude") }] }],
      },
    });
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: { beforeShellExecution: [{ command: deny("cursor") }] },
    });
    write(join(home, ".gemini/settings.json"), {
      hooks: { BeforeTool: [{ hooks: [{ type: "command", command: deny("gemini") }] }] },
    });
    write(join(home, ".copilot/hooks/guard.json"), {
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: "command",
            bash: `cat > /dev/null; echo '{"permissionDecision":"deny","permissionDecisionReason":"copilot"}'`,
          },
        ],
      },
    });
    write(join(home, ".codex/hooks.json"), {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: deny("codex") }] }] },
    });
  }

  it("turns off one hook of every format, without editing its file; enable undoes it", async () => {
    everyFormatAtHome();
    const { hooks } = await list();
    expect(hooks.map((h) => h.format ?? "claude-code")).toEqual([
      "claude-code",
      "cursor",
      "gemini",
      "copilot",
      "codex",
    ]);
    const order = ["claude", "cursor", "gemini", "copilot", "codex"];
    for (const [i, hook] of hooks.entries()) {
      const off = await cli("disable", hook.id);
      expect(off.code, off.err).toBe(0);
      expect(off.out).toContain(`Disabled hook ${hook.id}:`);
      // The next hook in order now answers first.
      const fired = await cli(...rm);
      if (i < hooks.length - 1) {
        expect(fired.code).toBe(2);
        expect(JSON.parse(fired.out).reason).toContain(order[i + 1]);
      } else expect(fired.code).toBe(0);
    }
    const after = await list();
    expect(after.hooks).toEqual([]);
    expect(after.skipped.map((h) => [h.id, h.reason, h.disabled])).toEqual(
      hooks.map((h) => [h.id, "disabled", true]),
    );
    const text = (await cli("list")).out;
    expect(text).toContain(`disabled: turned off by "a3s-hooks disable ${hooks[2]!.id}"`);

    expect((await cli("enable", hooks[2]!.id)).out).toBe(
      `Enabled hook ${hooks[2]!.id}; it runs again.\n`,
    );
    expect((await cli("enable", hooks[2]!.id)).out).toBe(
      `Hook ${hooks[2]!.id} was not disabled.\n`,
    );
    const fired = await cli(...rm);
    expect(fired.code).toBe(2);
    expect(JSON.parse(fired.out).reason).toContain("gemini");
  });

  it("refuses to turn off a managed hook", async () => {
    write(managed, {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 2" }] }],
      },
    });
    const id = (await list()).hooks[0]!.id;
    const off = await cli("disable", id);
    expect(off.code).toBe(1);
    expect(off.err).toContain(`hook ${id} is in a managed policy file`);
    expect((await list()).hooks.map((h) => h.id)).toEqual([id]);
  });

  it("keeps a disabled hook off when its file is reordered, and lets an edited one run", async () => {
    everyFormatAtHome();
    const id = idOf((await list()).hooks, "echo cursor");
    await cli("disable", id);
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: {
        beforeReadFile: [{ command: "true" }],
        beforeShellExecution: [{ command: "echo cursor >&2; exit 2" }],
      },
    });
    expect((await list()).skipped.map((h) => h.id)).toEqual([id]);
    write(join(home, ".cursor/hooks.json"), {
      version: 1,
      hooks: { beforeShellExecution: [{ command: "echo cursor edited >&2; exit 2" }] },
    });
    const { hooks, skipped } = await list();
    expect(skipped).toEqual([]);
    expect(hooks.some((h) => h.command.includes("cursor edited"))).toBe(true);
  });
});
