import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let managed: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-list-"));
  managed = join(root, "etc/managed-settings.json");
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "repo"));
  io = memoryIo({
    cwd: join(root, "repo"),
    home: join(root, "home"),
    managedSettings: [managed],
    env: {},
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content));
}

const hook = (event: string, command: string, extra: Record<string, unknown> = {}) => ({
  [event]: [{ hooks: [{ type: "command", command, ...extra }] }],
});

describe("a3s-hooks list", () => {
  it("says which scope and file each hook came from, and why the others do not run", async () => {
    write(managed, {
      allowManagedHooksOnly: true,
      hooks: {
        ...hook("PreToolUse", "./guard.sh", { if: "Bash(git push:*)" }),
        ...hook("Stop", "./on-stop.sh", { if: "Bash(git *)" }),
      },
    });
    write(join(root, "home/.claude/settings.json"), { hooks: hook("PostToolUse", "./user.sh") });
    write(join(root, "repo/.claude/settings.json"), { hooks: hook("PreToolUse", "./project.sh") });

    expect(await runCli(["list"], io)).toBe(0);
    const out = io.out;
    const running = out.slice(0, out.indexOf("Not running:"));
    const notRunning = out.slice(out.indexOf("Not running:"));

    expect(running).toContain("./guard.sh");
    expect(running).toContain(`from managed policy settings ${managed}; if Bash(git push:*)`);
    expect(running).not.toContain("./user.sh");

    // Each skipped hook: its line, then indented lines saying where it came from and why.
    const entries = notRunning.split(/\n(?= {2}\S)/);
    const block = (command: string) => {
      const entry = entries.find((e) => e.includes(command));
      expect(entry, command).toBeDefined();
      return entry!;
    };
    expect(block("./on-stop.sh")).toMatch(
      /from managed policy settings .*; if Bash\(git \*\) {2}\(id [0-9a-f]{12}\)\n {4}condition: "if": "Bash\(git \*\)" is tested on tool events only; on Stop it never matches/,
    );
    expect(block("./user.sh")).toContain("from user settings ~/.claude/settings.json");
    expect(block("./user.sh")).toContain(
      `managed-only: only managed hooks run: "allowManagedHooksOnly": true in ${managed}`,
    );
    expect(block("./project.sh")).toContain("from project settings .claude/settings.json");
    expect(block("./project.sh")).toContain("managed-only: only managed hooks run");
  });

  it("names the key and file that turned hooks off, and keeps managed hooks on", async () => {
    write(managed, { hooks: hook("PreToolUse", "./guard.sh") });
    write(join(root, "home/.claude/settings.json"), {
      disableAllHooks: true,
      hooks: hook("PreToolUse", "./user.sh"),
    });
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const json = JSON.parse(io.out);
    expect(json.hooks.map((h: { command: string; scope: string }) => [h.command, h.scope])).toEqual(
      [["./guard.sh", "managed"]],
    );
    expect(json.skipped).toEqual([
      expect.objectContaining({
        command: "./user.sh",
        scope: "user",
        source: "~/.claude/settings.json",
        reason: "disabled",
        message:
          'hooks are turned off by "disableAllHooks": true in ~/.claude/settings.json (managed hooks still run)',
      }),
    ]);
  });
});
