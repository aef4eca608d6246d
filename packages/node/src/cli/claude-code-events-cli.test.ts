import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

// No defineEvent here: the CLI knows Claude Code's events by itself.
let root: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-cc-events-"));
  io = memoryIo({
    cwd: root,
    home: root,
    env: {},
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("a3s-hooks test with Claude Code's other events", () => {
  it("fires ConfigChange at a settings file's hook, matched by source, and reports its block", async () => {
    const settings = file("hooks.json", {
      hooks: {
        ConfigChange: [
          {
            matcher: "project_settings",
            hooks: [
              {
                type: "command",
                command: `grep -q '"file_path":"/repo/.claude/settings.json"' && echo "no edits to project settings mid-session" >&2 && exit 2`,
              },
            ],
          },
        ],
      },
    });
    const project = file("project.json", {
      source: "project_settings",
      filePath: "/repo/.claude/settings.json",
    });
    expect(
      await runCli(["test", "ConfigChange", "--settings", settings, "--input", project], io),
    ).toBe(2);
    expect(io.err).toBe("");
    expect(io.out).toContain("Result: block: no edits to project settings mid-session");

    io.out = "";
    const user = file("user.json", {
      source: "user_settings",
      filePath: "/home/me/.claude/settings.json",
    });
    expect(
      await runCli(["test", "ConfigChange", "--settings", settings, "--input", user], io),
    ).toBe(0);
    expect(io.out).toContain("Result: continue");
  });
});
