import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandRunReport } from "../handlers/command/command-hook.js";
import {
  applyHookSettings,
  engineOptionsFromSettings,
  planHookSettings,
} from "./apply-hook-settings.js";
import type { SettingsHook } from "./hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";

let root: string;
let cwd: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-apply-"));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content, null, 2));
  return path;
}

const group = (matcher: string | undefined, ...commands: string[]) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: commands.map((command) => ({ type: "command", command })),
});

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

describe("applyHookSettings", () => {
  it("registers the trusted hooks and fires them; unregister removes them all", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [
          group("Bash", `case "$(cat)" in *rm*) echo "no rm" >&2; exit 2;; esac`),
          group("Write", "echo never"),
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    const runs: [CommandRunReport, SettingsHook][] = [];
    const handle = applyHookSettings(engine, settings, {
      projectDir: cwd,
      onRun: (report, hook) => runs.push([report, hook]),
    });
    expect(handle.applied.map((a) => a.hook.definition.command)).toHaveLength(2);
    expect(engine.list().map((h) => [h.matcher, h.timeout, h.source])).toEqual([
      ["Bash", 60_000, join(home, ".claude/settings.json")],
      ["Write", 60_000, join(home, ".claude/settings.json")],
    ]);
    const result = await engine.fire(bash("rm -rf build"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("no rm");
    expect(runs.map(([r, h]) => [r.exitCode, h.path])).toEqual([
      [2, "hooks.PreToolUse[0].hooks[0]"],
    ]);
    handle.unregister();
    expect(engine.size()).toBe(0);
    expect((await engine.fire(bash("rm -rf build"))).action).toBe("continue");
  });

  it("is disposable", async () => {
    write(join(home, ".claude/settings.json"), { hooks: { Stop: [group(undefined, "true")] } });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine();
    {
      using handle = applyHookSettings(engine, settings);
      expect(handle.applied).toHaveLength(1);
      expect(engine.size()).toBe(1);
    }
    expect(engine.size()).toBe(0);
  });

  it("runs an identical command for the same event and matcher once, and says which copy runs", async () => {
    const user = write(join(home, ".claude/settings.json"), {
      hooks: { PreToolUse: [group("Bash", "./guard.sh"), group("Write", "./guard.sh")] },
    });
    const explicit = write(join(root, "extra.json"), {
      hooks: { preToolUse: { guard: { command: "./guard.sh", matcher: "Bash" } } },
    });
    const settings = await loadHookSettings({ cwd, home, files: [explicit], managedSettings: [] });
    const plan = planHookSettings(settings);
    expect(plan.apply.map((h) => [h.source, h.matcher])).toEqual([
      [explicit, "Bash"],
      [user, "Write"],
    ]);
    expect(plan.skipped).toEqual([
      {
        hook: expect.objectContaining({ source: user, matcher: "Bash" }),
        reason: "duplicate",
        message: expect.stringMatching(
          /^same command as hooks\.preToolUse\.guard in .*extra\.json \(identical in every field\), which runs instead$/,
        ),
      },
    ]);
  });

  it("runs both copies of a command that differ in any other field", async () => {
    const guard = `echo ran >> ${JSON.stringify(join(root, "runs"))}; echo no >&2; exit 2`;
    write(join(home, ".claude/settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ command: guard }] }] },
    });
    const copies = [{ async: true }, { timeout: 0.001 }, { cwd: "/nonexistent" }, { env: {} }];
    for (const [i, extra] of copies.entries()) {
      const explicit = write(join(root, `copy${i}.json`), {
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ command: guard, ...extra }] }] },
      });
      const settings = await loadHookSettings({
        cwd,
        home,
        files: [explicit],
        managedSettings: [],
      });
      const plan = planHookSettings(settings);
      expect(plan.skipped).toEqual([]);
      expect(plan.apply).toHaveLength(2);
    }
    // The weakened copy comes first, yet the user's guard still runs and blocks.
    const explicit = write(join(root, "async.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ command: guard, async: true }] }] },
    });
    const settings = await loadHookSettings({ cwd, home, files: [explicit], managedSettings: [] });
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    using _handle = applyHookSettings(engine, settings, { projectDir: cwd });
    expect((await engine.fire(bash("rm -rf x"))).action).toBe("block");
  });

  it("passes a host secret to command hooks only when a user file lists it, never a project file", async () => {
    const out = join(root, "env.txt");
    const hook = { hooks: { Stop: [group(undefined, `env > ${JSON.stringify(out)}`)] } };
    const env = { PATH: process.env.PATH, A3S_TOKEN: "t0ken", OPENAI_API_KEY: "sk-openai" };
    const stop = createEvent("Stop", { sessionId: "s", stopHookActive: false });
    const runWith = async (files: string[]) => {
      const settings = await loadHookSettings({ cwd, home, files, managedSettings: [] });
      const engine = new HookEngine();
      using _handle = applyHookSettings(engine, settings, { projectDir: cwd, env });
      await engine.fire(stop);
      return { settings, env: readFileSync(out, "utf8") };
    };
    write(join(home, ".claude/settings.json"), hook);
    expect((await runWith([])).env).not.toMatch(/t0ken|sk-openai/);
    write(join(home, ".claude/settings.json"), {
      ...hook,
      commandHookAllowedSecrets: ["OPENAI_API_KEY"],
    });
    const allowed = (await runWith([])).env;
    expect(allowed).toContain("OPENAI_API_KEY=sk-openai\n");
    expect(allowed).not.toContain("t0ken");
    write(join(home, ".claude/settings.json"), hook);
    const project = write(join(cwd, ".claude/settings.json"), {
      commandHookAllowedSecrets: ["A3S_TOKEN"],
    });
    const { settings, env: fromProject } = await runWith([]);
    expect(fromProject).not.toContain("t0ken");
    expect(settings.problems).toContainEqual(
      expect.objectContaining({ file: project, path: "commandHookAllowedSecrets" }),
    );
  });

  it("keeps the host's own hooks on when a user file says disableAllHooks", async () => {
    write(join(home, ".claude/settings.json"), {
      disableAllHooks: true,
      hooks: { PreToolUse: [group("Bash", "exit 0")] },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    engine.register({
      event: "PreToolUse",
      name: "host-policy",
      handler: () => ({ action: "block", reason: "host says no" }),
    });
    using handle = applyHookSettings(engine, settings);
    expect(handle.applied).toEqual([]);
    const result = await engine.fire(bash("rm -rf x"));
    expect([result.action, result.reason]).toEqual(["block", "host says no"]);
  });

  it("skips everything, saying where, when disableAllHooks or enabled:false is set", async () => {
    write(join(home, ".claude/settings.json"), {
      disableAllHooks: true,
      hooks: { Stop: [group(undefined, "true")] },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.applied).toEqual([]);
    expect(handle.skipped.map((s) => [s.reason, s.message])).toEqual([
      ["disabled", `hooks are turned off by "disableAllHooks": true in ~/.claude/settings.json`],
    ]);
    // The engine stays on for the host's own hooks: a user file governs its own.
    expect(engineOptionsFromSettings(settings)).toEqual({});
  });

  it("reports untrusted project hooks as skipped, never silently", async () => {
    write(join(cwd, ".claude/settings.json"), { hooks: { Stop: [group(undefined, "true")] } });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.skipped.map((s) => s.reason)).toEqual(["untrusted"]);
  });

  it("lists hooks past the engine's limits as skipped (limit) and keeps the rest", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: { maxHooksPerEvent: 2, Stop: [group(undefined, "echo 1", "echo 2", "echo 3")] },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    const handle = applyHookSettings(engine, settings);
    expect(handle.applied.map((a) => a.hook.definition.command)).toEqual(["echo 1", "echo 2"]);
    expect(handle.skipped.map((s) => [s.reason, s.hook.definition.command])).toEqual([
      ["limit", "echo 3"],
    ]);
    expect(handle.skipped[0]?.message).toMatch(/2/);
  });

  it("uses the settings' defaultTimeout (ms) and failBehavior for hooks that set none", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        defaultTimeout: 30000,
        failBehavior: "block",
        Stop: [
          {
            hooks: [
              { command: "exit 1" },
              { command: "true", timeout: 3, failBehavior: "continue" },
            ],
          },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    const engine = new HookEngine();
    applyHookSettings(engine, settings);
    expect(engine.list().map((h) => [h.timeout, h.failBehavior])).toEqual([
      [30000, "block"],
      [3000, "continue"],
    ]);
    const result = await engine.fire(
      createEvent("Stop", { sessionId: "s", stopHookActive: false }),
    );
    expect(result.action).toBe("block");
    expect(result.reason).toBe("hook exit 1 failed: exit code 1");
  });
});
