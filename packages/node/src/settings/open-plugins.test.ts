// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${PLUGIN_ROOT} placeholders are what these tests are about
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "../cli/run-cli.js";
import { applyHookSettings, engineOptionsFromSettings } from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";

/**
 * A plugin in the Open Plugins layout (`.plugin/plugin.json`, `hooks/hooks.json`, a script
 * named through `${PLUGIN_ROOT}`), loaded as a plugin folder and fired through the engine; and
 * the event table of docs/formats/open-plugins.md, checked.
 */
const DOC = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../docs/formats/open-plugins.md",
);

let root: string;
let cwd: string;
let home: string;
let plugin: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-open-plugin-")));
  cwd = join(root, "repo");
  home = join(root, "home");
  plugin = join(root, "plugins", "deploy tools");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The plugin: a manifest, a guard on Bash that exits 2 on `rm`, a formatter after edits. */
function makePlugin(hooks?: Record<string, unknown>): void {
  write(join(plugin, ".plugin/plugin.json"), { name: "deploy-tools", version: "1.0.0" });
  write(
    join(plugin, "scripts/guard.sh"),
    `#!/usr/bin/env bash
input=$(cat)
printf '%s' "$input" > "$PLUGIN_DATA/last-stdin.json"
case "$input" in
  *'"command":"rm '*) echo "deploy-tools: no rm" >&2; exit 2 ;;
esac
exit 0
`,
  );
  write(
    join(plugin, "hooks/hooks.json"),
    hooks ?? {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: 'bash "${PLUGIN_ROOT}/scripts/guard.sh"' }],
          },
        ],
        PostToolUse: [
          {
            matcher: "Write|Edit",
            hooks: [{ type: "command", command: 'echo "$PLUGIN_ROOT" > "$PLUGIN_DATA/root.txt"' }],
          },
        ],
      },
    },
  );
}

async function engineFor() {
  const settings = await loadHookSettings({ cwd, home, managedSettings: [], plugins: [plugin] });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  applyHookSettings(engine, settings, { projectDir: cwd });
  return { settings, engine };
}
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe("an Open Plugins plugin folder", () => {
  it("takes its name from .plugin/plugin.json and runs hooks/hooks.json with PLUGIN_ROOT and PLUGIN_DATA", async () => {
    makePlugin();
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect(settings.plugins?.map((p) => [p.name, p.id])).toEqual([
      ["deploy-tools", "deploy-tools@inline"],
    ]);
    const dataDir = settings.plugins![0]!.dataDir;
    const blocked = await engine.fire(bash("rm -rf dist") as never);
    expect([blocked.action, blocked.reason]).toEqual(["block", "deploy-tools: no rm"]);
    // Claude Code's stdin, which the Open Plugins hooks component takes over.
    expect(JSON.parse(readFileSync(join(dataDir, "last-stdin.json"), "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf dist" },
    });
    expect((await engine.fire(bash("ls") as never)).action).toBe("continue");
    const edit = createEvent("PostToolUse", {
      sessionId: "s1",
      tool: "Edit",
      args: { file_path: "a.ts", old_string: "a", new_string: "b" },
      result: { success: true, output: "ok", duration: 1 },
    });
    await engine.fire(edit as never);
    expect(readFileSync(join(dataDir, "root.txt"), "utf8").trim()).toBe(realpathSync(plugin));
  });

  it("puts PLUGIN_ROOT into an exec-form hook's arguments", async () => {
    makePlugin({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "bash", args: ["${PLUGIN_ROOT}/scripts/guard.sh"] },
            ],
          },
        ],
      },
    });
    const { settings, engine } = await engineFor();
    expect(settings.problems).toEqual([]);
    expect((await engine.fire(bash("rm x") as never)).reason).toBe("deploy-tools: no rm");
  });

  it("runs through a3s-hooks test --plugin-dir", async () => {
    makePlugin();
    const io: MemoryIo = memoryIo({ cwd, home, managedSettings: [], env: {} });
    const args = ["--tool", "Bash", "--args", JSON.stringify({ command: "rm -rf dist" })];
    expect(
      await runCli(["test", "PreToolUse", "--plugin-dir", plugin, "--no-defaults", ...args], io),
    ).toBe(2);
    expect(io.out).toContain("deploy-tools: no rm");
  });

  it("reads .claude-plugin/plugin.json first when a folder has both manifests", async () => {
    makePlugin();
    write(join(plugin, ".claude-plugin/plugin.json"), { name: "claude-name" });
    const { settings } = await engineFor();
    expect(settings.plugins?.map((p) => p.name)).toEqual(["claude-name"]);
  });
});

/** The event rows of the doc's Events table: name and status. */
function eventRows(): { event: string; status: string }[] {
  const text = readFileSync(DOC, "utf8");
  const section = text.slice(
    text.indexOf("## Events"),
    text.indexOf("\n## ", text.indexOf("## Events") + 1),
  );
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line.split("|").map((c) => c.trim());
      return { event: cells[1]!.replaceAll("`", ""), status: cells[cells.length - 2]! };
    });
}

describe("docs/formats/open-plugins.md", () => {
  it("has a row per event of the Open Plugins hooks page; supported rows load, the others warn", async () => {
    const rows = eventRows();
    expect(rows.map((r) => r.event).sort()).toEqual(
      [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "SessionStart",
        "SessionEnd",
        "BeforeReadFile",
        "AfterFileEdit",
        "BeforeShellExecution",
        "AfterShellExecution",
        "UserPromptSubmit",
        "Stop",
        "SubagentStart",
        "SubagentStop",
      ].sort(),
    );
    const hooks = Object.fromEntries(
      rows.map((r) => [r.event, [{ hooks: [{ type: "command", command: "true" }] }]]),
    );
    makePlugin({ hooks });
    const { settings } = await engineFor();
    const file = join(realpathSync(plugin), "hooks/hooks.json");
    const warned = settings.problems
      .filter((p) => p.file === file && p.severity === "warning")
      .map((p) => p.path.replace(/^hooks\./, ""));
    const loaded = settings.hooks.map((h) => h.event);
    for (const row of rows) {
      expect(["supported", "not supported"]).toContain(row.status);
      if (row.status === "supported") {
        expect(loaded).toContain(row.event);
        expect(warned).not.toContain(row.event);
      } else {
        expect(warned).toContain(row.event);
      }
    }
    expect(loaded).toHaveLength(rows.filter((r) => r.status === "supported").length);
  });
});
