import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-trustcli-"));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, ".claude/hooks"), { recursive: true });
  writeFileSync(join(root, ".claude/hooks/guard.sh"), "#!/bin/sh\nexit 2\n");
  chmodSync(join(root, ".claude/hooks/guard.sh"), 0o755);
  writeFileSync(
    join(root, ".claude/settings.json"),
    JSON.stringify({
      mcpServers: { policy: { command: "node", args: ["server.js"] } },
      hooks: {
        defaultTimeout: 5000,
        failBehavior: "block",
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }],
          },
        ],
      },
    }),
  );
  io = memoryIo({ cwd: root, home: join(root, "home"), env: {}, managedSettings: [] });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a3s-hooks trust", () => {
  it("shows everything it trusts: hooks, options, MCP servers, scripts and their hashes", async () => {
    expect(await runCli(["trust"], io)).toBe(0);
    const out = io.out;
    expect(out).toContain("guard.sh");
    expect(out).toContain('Options:\n  defaultTimeout: 5000\n  failBehavior: "block"\n');
    expect(out).toContain("MCP servers:\n  policy: node server.js\n");
    expect(out).toMatch(
      /Project files the hooks run:\n {2}\.claude\/hooks\/guard\.sh sha256:[0-9a-f]{64}\n/,
    );
  });

  it("says the same in --json", async () => {
    expect(await runCli(["trust", "--json"], io)).toBe(0);
    const json = JSON.parse(io.out);
    expect(json.options).toEqual({ defaultTimeout: 5000, failBehavior: "block" });
    expect(json.mcpServers).toEqual([{ name: "policy", runs: "node server.js" }]);
    expect(json.scripts).toEqual([
      { path: ".claude/hooks/guard.sh", hash: expect.stringMatching(/^sha256:/) },
    ]);
  });
});
