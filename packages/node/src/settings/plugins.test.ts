// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${CLAUDE_PLUGIN_ROOT} placeholders are what these tests are about
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "../cli/run-cli.js";
import {
  applyHookSettings,
  engineOptionsFromSettings,
  planHookSettings,
} from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";
import { INSTALLED_PLUGINS_FILE, pluginDataName } from "./plugins.js";

let root: string;
let cwd: string;
let home: string;
let plugin: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-plugin-"));
  cwd = join(root, "repo");
  home = join(root, "home");
  // A space in the folder's name: the shell expands the variable, so the path stays one word.
  plugin = join(root, "market", "guard plugin");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** A plugin as the plugins reference lays it out: manifest, hooks/hooks.json, a script. */
function makePlugin(dir: string, name = "guard"): void {
  write(join(dir, ".claude-plugin/plugin.json"), { name, version: "1.0.0" });
  write(join(dir, "hooks/hooks.json"), {
    description: "Refuses rm",
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: '"${CLAUDE_PLUGIN_ROOT}"/scripts/x.sh' }],
        },
      ],
    },
  });
  const script = write(
    join(dir, "scripts/x.sh"),
    [
      "#!/bin/sh",
      'printf "%s" "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PLUGIN_DATA/root.txt"',
      'case "$(cat)" in *rm*) echo "plugin says no: $CLAUDE_PLUGIN_ROOT" >&2; exit 2;; esac',
      "",
    ].join("\n"),
  );
  chmodSync(script, 0o755);
}

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

describe("plugins", () => {
  it("runs a named plugin folder's hooks/hooks.json with CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA", async () => {
    makePlugin(plugin);
    const settings = await loadHookSettings({ cwd, home, managedSettings: [], plugins: [plugin] });
    expect(settings.problems).toEqual([]);
    const dataDir = join(home, ".claude/plugins/data", pluginDataName("guard@inline"));
    expect(settings.plugins).toEqual([
      { name: "guard", id: "guard@inline", root: plugin, dataDir },
    ]);
    const [hook] = settings.hooks;
    expect(hook).toMatchObject({ scope: "plugin", trusted: true, event: "PreToolUse" });
    expect(hook?.plugin?.name).toBe("guard");
    // The data folder is made because the plugin refers to it.
    expect(existsSync(dataDir)).toBe(true);

    const engine = new HookEngine(engineOptionsFromSettings(settings));
    applyHookSettings(engine, settings, { projectDir: cwd });
    const blocked = await engine.fire(bash("rm -rf build"));
    expect(blocked.action).toBe("block");
    expect(blocked.reason).toContain(`plugin says no: ${plugin}`);
    expect((await engine.fire(bash("ls"))).action).toBe("continue");
    expect(readFileSync(join(dataDir, "root.txt"), "utf8")).toBe(plugin);
  });

  it("loads an installed plugin that a user file enables, not one an untrusted project enables", async () => {
    makePlugin(plugin);
    write(join(home, INSTALLED_PLUGINS_FILE), {
      version: 2,
      plugins: { "guard@acme": [{ scope: "user", installPath: plugin, version: "1.0.0" }] },
    });
    write(join(cwd, ".claude/settings.json"), { enabledPlugins: { "guard@acme": true } });
    const fromProject = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(fromProject.hooks).toEqual([]);
    expect(fromProject.project?.trusted).toBe(false);

    write(join(home, ".claude/settings.json"), { enabledPlugins: { "guard@acme": true } });
    const fromUser = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(fromUser.hooks.map((h) => h.plugin?.id)).toEqual(["guard@acme"]);
    expect(fromUser.plugins?.[0]?.dataDir).toBe(join(home, ".claude/plugins/data/guard-acme"));
  });

  it("a higher file's false turns an enabled plugin off; enabled but not installed is a warning", async () => {
    makePlugin(plugin);
    write(join(home, INSTALLED_PLUGINS_FILE), {
      version: 2,
      plugins: { "guard@acme": [{ installPath: plugin }] },
    });
    write(join(home, ".claude/settings.json"), {
      enabledPlugins: { "guard@acme": true, "ghost@acme": true },
    });
    const named = write(join(root, "named.json"), { enabledPlugins: { "guard@acme": false } });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [], files: [named] });
    expect(settings.hooks).toEqual([]);
    expect(settings.problems).toEqual([
      expect.objectContaining({
        path: "enabledPlugins.ghost@acme",
        severity: "warning",
        message: expect.stringContaining("not installed"),
      }),
    ]);
  });

  it("gives a plugin's mcp_tool hooks the plugin's own .mcp.json servers, with its root expanded", async () => {
    write(join(plugin, ".claude-plugin/plugin.json"), { name: "db-tools" });
    write(join(plugin, ".mcp.json"), {
      mcpServers: {
        db: { command: "${CLAUDE_PLUGIN_ROOT}/bin/db", args: ["--root", "${CLAUDE_PLUGIN_ROOT}"] },
      },
    });
    write(join(plugin, "hooks/hooks.json"), {
      hooks: {
        PostToolUse: [{ hooks: [{ type: "mcp_tool", server: "db", tool: "log" }] }],
      },
    });
    // The user's own "db" server is another server: the plugin's hook does not call it.
    write(join(home, ".claude/settings.json"), {
      mcpServers: { db: { command: "/usr/bin/true" } },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [], plugins: [plugin] });
    expect(settings.mcpServers?.map((s) => s.name)).toEqual(["db", "plugin:db-tools:db"]);
    const server = settings.mcpServers?.[1];
    expect(server?.config).toMatchObject({
      type: "stdio",
      command: `${plugin}/bin/db`,
      args: ["--root", plugin],
      env: { CLAUDE_PLUGIN_ROOT: plugin },
    });
    expect(settings.hooks[0]?.definition).toMatchObject({ server: "plugin:db-tools:db" });
  });

  it("a missing plugin folder is an error naming it", async () => {
    const missing = join(root, "nope");
    const settings = await loadHookSettings({ cwd, home, managedSettings: [], plugins: [missing] });
    expect(settings.problems).toEqual([
      expect.objectContaining({ file: missing, message: "plugin folder not found" }),
    ]);
  });

  it("strictPluginOnlyCustomization (managed) runs only plugin and managed hooks and servers", async () => {
    makePlugin(plugin);
    write(join(home, ".claude/settings.json"), {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo user" }] }] },
      mcpServers: { mine: { command: "/usr/bin/true" } },
    });
    const managed = write(join(root, "etc/managed-settings.json"), {
      strictPluginOnlyCustomization: ["hooks", "mcp"],
      hooks: { Stop: [{ hooks: [{ type: "command", command: "echo managed" }] }] },
    });
    const settings = await loadHookSettings({
      cwd,
      home,
      managedSettings: [managed],
      plugins: [plugin],
    });
    const plan = planHookSettings(settings);
    expect(plan.apply.map((h) => h.scope).sort()).toEqual(["managed", "plugin"]);
    expect(plan.skipped).toEqual([
      expect.objectContaining({
        reason: "plugin-only",
        hook: expect.objectContaining({ scope: "user" }),
      }),
    ]);
    expect(settings.mcpServers).toEqual([]);
    expect(settings.problems).toContainEqual(
      expect.objectContaining({ path: "mcpServers.mine", severity: "warning" }),
    );
  });

  it("strictPluginOnlyCustomization outside a managed file is ignored; a value it cannot read reserves everything", async () => {
    write(join(home, ".claude/settings.json"), {
      strictPluginOnlyCustomization: true,
      hooks: { Stop: [{ hooks: [{ type: "command", command: "echo user" }] }] },
    });
    const user = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(planHookSettings(user).apply).toHaveLength(1);
    expect(user.problems).toContainEqual(
      expect.objectContaining({ path: "strictPluginOnlyCustomization", severity: "warning" }),
    );

    const managed = write(join(root, "etc/managed-settings.json"), {
      strictPluginOnlyCustomization: ["hooks", "everything"],
    });
    const odd = await loadHookSettings({ cwd, home, managedSettings: [managed] });
    expect(planHookSettings(odd).apply).toEqual([]);
    expect(odd.problems).toContainEqual(
      expect.objectContaining({ path: "strictPluginOnlyCustomization", severity: "error" }),
    );
  });

  it("a3s-hooks list names each plugin hook's plugin (--plugin-dir)", async () => {
    makePlugin(plugin);
    const io: MemoryIo = memoryIo({ cwd, home });
    expect(await runCli(["list", "--no-defaults", "--plugin-dir", plugin], io)).toBe(0);
    expect(io.out).toContain("from plugin guard@inline:");
    const json: MemoryIo = memoryIo({ cwd, home });
    expect(await runCli(["list", "--no-defaults", "--plugin-dir", plugin, "--json"], json)).toBe(0);
    const listed = JSON.parse(json.out);
    expect(listed.hooks[0]).toMatchObject({ scope: "plugin", plugin: "guard@inline" });
  });
});
