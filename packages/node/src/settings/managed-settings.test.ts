import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  applyHookSettings,
  engineOptionsFromSettings,
  planHookSettings,
} from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";
import { defaultManagedSettingsFiles, unsafeManagedPath } from "./managed-settings.js";

let root: string;
let cwd: string;
let home: string;
let etc: string;
let managedFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-managed-"));
  cwd = join(root, "repo");
  home = join(root, "home");
  etc = join(root, "etc/claude-code");
  managedFile = join(etc, "managed-settings.json");
  mkdirSync(cwd);
  mkdirSync(home);
  mkdirSync(etc, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content, null, 2));
  return path;
}

const hooks = (command: string) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }],
});

const load = () => loadHookSettings({ cwd, home, managedSettings: [managedFile] });

describe("the managed scope", () => {
  it("is read first, always trusted, and its options win", async () => {
    write(managedFile, { hooks: { ...hooks("managed-guard"), failBehavior: "block" } });
    write(join(home, ".claude/settings.json"), {
      hooks: { ...hooks("user-hook"), failBehavior: "continue" },
    });
    const settings = await load();
    expect(settings.hooks.map((h) => [h.definition.command, h.scope, h.trusted])).toEqual([
      ["managed-guard", "managed", true],
      ["user-hook", "user", true],
    ]);
    expect(settings.options.failBehavior).toBe("block");
    expect(settings.optionSources.failBehavior).toBe(managedFile);
    expect(settings.files[0]).toMatchObject({ path: managedFile, scope: "managed", loaded: true });
  });

  it("reads managed-settings.d drop-ins; a later name wins", async () => {
    write(managedFile, { hooks: { ...hooks("base"), auditLevel: "off" } });
    write(join(etc, "managed-settings.d/10-a.json"), { hooks: { auditLevel: "info" } });
    write(join(etc, "managed-settings.d/20-b.json"), { hooks: { auditLevel: "verbose" } });
    write(join(etc, "managed-settings.d/.hidden.json"), { hooks: hooks("hidden") });
    const settings = await load();
    expect(settings.options.auditLevel).toBe("verbose");
    expect(settings.files.filter((f) => f.scope === "managed").map((f) => f.path)).toEqual([
      join(etc, "managed-settings.d/20-b.json"),
      join(etc, "managed-settings.d/10-a.json"),
      managedFile,
    ]);
    expect(settings.hooks.map((h) => h.definition.command)).toEqual(["base"]);
  });

  it("allowManagedHooksOnly leaves only managed hooks, naming the managed file", async () => {
    write(managedFile, { allowManagedHooksOnly: true, hooks: hooks("managed-guard") });
    write(join(home, ".claude/settings.json"), { hooks: hooks("user-hook") });
    const plan = planHookSettings(await load());
    expect(plan.apply.map((h) => h.definition.command)).toEqual(["managed-guard"]);
    expect(plan.skipped.map((s) => [s.hook.definition.command, s.reason])).toEqual([
      ["user-hook", "managed-only"],
    ]);
    expect(plan.skipped[0]?.message).toContain(managedFile);
  });

  it("ignores allowManagedHooksOnly outside a managed file, aloud", async () => {
    const user = write(join(home, ".claude/settings.json"), {
      allowManagedHooksOnly: true,
      hooks: hooks("user-hook"),
    });
    const settings = await load();
    expect(settings.problems).toEqual([
      expect.objectContaining({ file: user, path: "allowManagedHooksOnly", severity: "warning" }),
    ]);
    expect(planHookSettings(settings).apply).toHaveLength(1);
  });

  it("a user or project disableAllHooks cannot turn managed hooks off", async () => {
    write(managedFile, { hooks: hooks("managed-guard") });
    write(join(home, ".claude/settings.json"), {
      disableAllHooks: true,
      hooks: hooks("user-hook"),
    });
    const settings = await load();
    const plan = planHookSettings(settings);
    expect(plan.apply.map((h) => h.definition.command)).toEqual(["managed-guard"]);
    expect(plan.skipped.map((s) => [s.reason, s.message])).toEqual([
      ["disabled", expect.stringContaining("(managed hooks still run)")],
    ]);
    expect(engineOptionsFromSettings(settings).enabled).toBeUndefined();
  });

  it("a lower scope's engine options never weaken a managed hook", async () => {
    write(managedFile, { hooks: hooks("echo managed says no >&2; exit 2") });
    write(join(home, ".claude/settings.json"), {
      hooks: { defaultTimeout: 1, failBehavior: "continue", maxTotalHooks: 1, maxHooksPerEvent: 1 },
    });
    const settings = await load();
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    using handle = applyHookSettings(engine, settings, { projectDir: cwd });
    expect(handle.skipped).toEqual([]);
    expect(engine.list().map((h) => [h.timeout, h.failBehavior])).toEqual([[60_000, "continue"]]);
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "rm -rf /" } }),
    );
    expect([result.action, result.reason]).toEqual(["block", "managed says no"]);
  });

  it("a lower scope's hook limits bound its own hooks, never the managed ones", async () => {
    write(managedFile, { hooks: hooks("managed-1") });
    write(join(home, ".claude/settings.json"), {
      hooks: { maxTotalHooks: 1, ...hooks("user-1") },
    });
    const settings = await load();
    expect(engineOptionsFromSettings(settings)).toEqual({});
    const plan = planHookSettings(settings);
    expect(plan.apply.map((h) => h.definition.command)).toEqual(["managed-1"]);
    expect(plan.skipped.map((s) => [s.hook.definition.command, s.reason])).toEqual([
      ["user-1", "limit"],
    ]);
  });

  it("a managed defaultTimeout and failBehavior apply to managed hooks and the engine", async () => {
    write(managedFile, {
      hooks: { defaultTimeout: 2000, failBehavior: "block", ...hooks("managed") },
    });
    write(join(home, ".claude/settings.json"), { hooks: hooks("user") });
    const settings = await load();
    expect(engineOptionsFromSettings(settings)).toEqual({
      defaultTimeoutMs: 2000,
      failBehavior: "block",
    });
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    using _handle = applyHookSettings(engine, settings, { projectDir: cwd });
    expect(engine.list().map((h) => [h.timeout, h.failBehavior])).toEqual([
      [2000, "block"],
      [2000, "block"],
    ]);
  });

  it("a managed disableAllHooks turns every hook off", async () => {
    write(managedFile, { disableAllHooks: true, hooks: hooks("managed-guard") });
    write(join(home, ".claude/settings.json"), { disableAllHooks: false, hooks: hooks("user") });
    const settings = await load();
    expect(planHookSettings(settings).apply).toEqual([]);
    expect(engineOptionsFromSettings(settings).enabled).toBe(false);
  });

  it("refuses a managed file or folder every user may write", async () => {
    write(managedFile, { hooks: hooks("planted") });
    chmodSync(managedFile, 0o666);
    const settings = await load();
    expect(settings.hooks).toEqual([]);
    expect(settings.problems).toEqual([
      expect.objectContaining({
        file: managedFile,
        severity: "error",
        message: expect.stringContaining(`every user may write ${managedFile}`),
      }),
    ]);
  });

  it("checks ownership and write bits along the whole resolved path, as sshd's StrictModes", async () => {
    write(managedFile, { hooks: hooks("planted") });
    const refusedFor = async () => {
      const settings = await load();
      expect(settings.hooks).toEqual([]);
      expect(settings.problems).toHaveLength(1);
      expect(settings.problems[0]).toMatchObject({ file: managedFile, severity: "error" });
      return settings.problems[0]!.message;
    };
    // A group-writable file, its group-writable folder, a group-writable folder further up.
    chmodSync(managedFile, 0o664);
    expect(await refusedFor()).toContain(`its group may write ${managedFile}`);
    chmodSync(managedFile, 0o644);
    chmodSync(etc, 0o775);
    expect(await refusedFor()).toContain(`its group may write ${etc} (a folder on its path)`);
    chmodSync(etc, 0o755);
    chmodSync(join(root, "etc"), 0o770);
    expect(await refusedFor()).toContain(`its group may write ${join(root, "etc")}`);
    chmodSync(join(root, "etc"), 0o755);
    // The folder holding the file is refused even with the sticky bit: anyone may add files.
    chmodSync(etc, 0o1777);
    expect(await refusedFor()).toContain(`every user may write ${etc}`);
    chmodSync(etc, 0o755);
    // Another user's file, or another user's symbolic link in its place.
    chownSync(managedFile, 4321, 0);
    expect(await refusedFor()).toContain(`${managedFile} is owned by uid 4321`);
    chownSync(managedFile, 0, 0);
    expect((await load()).hooks).toHaveLength(1);
  });

  it("follows symbolic links: each link and its target are checked", async () => {
    const open = join(root, "open");
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const real = write(join(open, "policy.json"), { hooks: hooks("planted") });
    symlinkSync(real, managedFile);
    let settings = await load();
    expect(settings.hooks).toEqual([]);
    expect(settings.problems[0]?.message).toContain(`every user may write ${open}`);
    // A link to a safe place is fine; the same link owned by another user is not.
    chmodSync(open, 0o755);
    expect((await load()).hooks).toHaveLength(1);
    lchownSync(managedFile, 4321, 0);
    settings = await load();
    expect(settings.hooks).toEqual([]);
    expect(settings.problems[0]?.message).toContain(`${managedFile} is owned by uid 4321`);
    // A link to a folder swapped in above the file is followed too.
    rmSync(managedFile);
    renameSync(etc, join(root, "etc-real"));
    write(join(root, "etc-real/managed-settings.json"), { hooks: hooks("via-folder-link") });
    symlinkSync(open, etc);
    renameSync(join(root, "etc-real/managed-settings.json"), join(open, "managed-settings.json"));
    chmodSync(open, 0o757);
    settings = await load();
    expect(settings.hooks).toEqual([]);
    expect(settings.problems[0]?.message).toContain(`every user may write ${open}`);
  });

  it("accepts a file the given user owns, and names a folder another user owns", async () => {
    const file = write(join(root, "mine/managed-settings.json"), {});
    chownSync(file, 4321, 0);
    expect(await unsafeManagedPath(file, { uid: 4321 })).toBeUndefined();
    expect(await unsafeManagedPath(file, { uid: 1 })).toContain(`${file} is owned by uid 4321`);
    chownSync(join(root, "mine"), 99, 0);
    expect(await unsafeManagedPath(file, { uid: 4321 })).toContain(
      `${join(root, "mine")} is owned by uid 99`,
    );
  });

  it("a managed http policy cannot be widened by other files; without one, lists merge", async () => {
    write(join(home, ".claude/settings.json"), {
      allowedHttpHookUrls: ["https://user.example/*"],
      httpHookAllowedEnvVars: ["USER_TOKEN"],
    });
    expect((await load()).httpHookPolicy).toEqual({
      allowedUrls: ["https://user.example/*"],
      allowedEnvVars: ["USER_TOKEN"],
    });
    write(managedFile, { allowedHttpHookUrls: ["https://corp.example/*"] });
    const settings = await load();
    expect(settings.httpHookPolicy).toEqual({
      allowedUrls: ["https://corp.example/*"],
      allowedEnvVars: ["USER_TOKEN"],
    });
    expect(settings.managedPolicy?.allowedHttpHookUrls?.file).toBe(managedFile);
  });

  it("defaults to the platform's locations, and to none when defaults is false", async () => {
    expect(defaultManagedSettingsFiles("linux")).toEqual([
      "/etc/a3s-hooks/managed-settings.json",
      "/etc/claude-code/managed-settings.json",
    ]);
    expect(defaultManagedSettingsFiles("darwin")).toContain(
      "/Library/Application Support/ClaudeCode/managed-settings.json",
    );
    const settings = await loadHookSettings({ cwd, home, defaults: false });
    expect(settings.files).toEqual([]);
  });
});
