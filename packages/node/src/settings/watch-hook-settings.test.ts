import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  claudeCodeEvents,
  createEvent,
  defineEvent,
  HookEngine,
  HookError,
  type Timers,
} from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { trustProject } from "./project-trust.js";
import {
  type SettingsWatcher,
  type SettingsWatcherEvents,
  watchHookSettings,
} from "./watch-hook-settings.js";

// The host opts in to Claude Code's ConfigChange; the watcher fires it when it is defined.
defineEvent(claudeCodeEvents.ConfigChange);

let root: string;
let cwd: string;
let home: string;
let watcher: SettingsWatcher | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-watch-"));
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** Save the way editors do: a temp file beside it, renamed over it. */
function save(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${Math.random().toString(16).slice(2)}.tmp`;
  writeFileSync(temp, typeof content === "string" ? content : JSON.stringify(content));
  renameSync(temp, path);
}

const blocker = (word: string) => ({
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            command: `case "$(cat)" in *tok-${word}*) echo "no ${word}" >&2; exit 2;; esac`,
          },
        ],
      },
    ],
  },
});

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

/** The next `name` event of the watcher. */
function next<K extends keyof SettingsWatcherEvents>(
  w: SettingsWatcher,
  name: K,
): Promise<SettingsWatcherEvents[K]> {
  return new Promise((resolve) => {
    const stop = w.on(name, (value) => {
      stop();
      resolve(value);
    });
  });
}

const userFile = () => join(home, ".claude", "settings.json");
const projectFile = () => join(cwd, ".claude", "settings.json");

describe("watchHookSettings", () => {
  it("picks up a settings file created after it started, in a folder that did not exist", async () => {
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    expect(watcher.handle.applied).toEqual([]);
    const reloaded = next(watcher, "reloaded");
    save(userFile(), blocker("rm"));
    const { files, handle } = await reloaded;
    expect(files).toEqual([userFile()]);
    expect(handle.applied).toHaveLength(1);
    expect((await engine.fire(bash("tok-rm -rf /"))).action).toBe("block");
  });

  it("an atomic save replaces the running set: the old hook is gone, the new one runs", async () => {
    save(userFile(), blocker("rm"));
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");
    const reloaded = next(watcher, "reloaded");
    save(userFile(), blocker("curl"));
    await reloaded;
    expect(engine.size("PreToolUse")).toBe(1);
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("continue");
    expect(await engine.fire(bash("tok-curl x"))).toMatchObject({
      action: "block",
      reason: "no curl",
    });
  });

  it("a bad edit keeps the last good set running and reports the problem; the fix reloads", async () => {
    save(userFile(), blocker("rm"));
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    const problem = next(watcher, "problem");
    save(userFile(), '{ "hooks": { "PreToolUse": [ ');
    expect(await problem).toMatchObject({
      reason: "invalid",
      files: [userFile()],
      problems: [expect.objectContaining({ file: userFile(), severity: "error" })],
    });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    const invalidHook = next(watcher, "problem");
    save(userFile(), {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true", timeout: "ten" }] }] },
    });
    expect((await invalidHook).reason).toBe("invalid");
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    const fixed = next(watcher, "reloaded");
    save(userFile(), blocker("curl"));
    await fixed;
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("continue");
    expect((await engine.fire(bash("tok-curl x"))).action).toBe("block");
  });

  it("a changed project hook waits for trust while the trusted one runs; trusting is picked up", async () => {
    save(projectFile(), blocker("rm"));
    await trustProject({ cwd, home });
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    const changed = next(watcher, "problem");
    save(projectFile(), blocker("curl"));
    expect(await changed).toMatchObject({ reason: "untrusted", files: [projectFile()] });
    expect((await engine.fire(bash("tok-curl x"))).action).toBe("continue");
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    // `a3s-hooks trust` in another terminal writes the trust store; the watcher sees it.
    const trusted = next(watcher, "reloaded");
    await trustProject({ cwd, home });
    expect((await trusted).settings.project?.trusted).toBe(true);
    expect((await engine.fire(bash("tok-curl x"))).action).toBe("block");
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("continue");
  });

  it("an edit that would untrust the running project hooks keeps them running until the project is trusted again", async () => {
    save(projectFile(), blocker("rm"));
    await trustProject({ cwd, home });
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    // What the agent itself could write mid-session: any edit changes the trusted hash.
    const local = join(cwd, ".claude", "settings.local.json");
    const problem = next(watcher, "problem");
    save(local, { disableAllHooks: false });
    expect(await problem).toMatchObject({
      reason: "untrusted",
      files: [local],
      message: expect.stringContaining(
        'project hook settings changed; the trusted ones keep running until you run "a3s-hooks trust"',
      ),
    });
    expect(watcher.settings.project?.trusted).toBe(true);
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    const trusted = next(watcher, "reloaded");
    await trustProject({ cwd, home });
    expect((await trusted).settings.project).toMatchObject({ trusted: true, changed: false });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    // Deleting the project's files is a change too: the trusted hooks stay until trusted again.
    const removed = next(watcher, "problem");
    rmSync(join(cwd, ".claude"), { recursive: true });
    expect((await removed).reason).toBe("untrusted");
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");
  });

  it("watches the project's .mcp.json", async () => {
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    const change = next(watcher, "change");
    save(join(cwd, ".mcp.json"), { mcpServers: {} });
    expect((await change).files).toEqual([join(cwd, ".mcp.json")]);
  });

  it("a new set the engine cannot hold is refused whole: the old set stays", async () => {
    save(userFile(), blocker("rm"));
    const engine = new HookEngine({ maxHooksPerEvent: 2 });
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    const problem = next(watcher, "problem");
    const three = ["a", "b", "c"].map((w) => blocker(w).hooks.PreToolUse[0]!);
    save(userFile(), { hooks: { PreToolUse: three } });
    expect(await problem).toMatchObject({ reason: "registration", files: [userFile()] });
    expect(engine.size("PreToolUse")).toBe(1);
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");
  });

  it("debounces a burst of saves into one reload of the last content", async () => {
    const pending = new Map<number, () => void>();
    let ids = 0;
    const timers: Timers = {
      setTimeout: (fn) => {
        pending.set(++ids, fn);
        return ids;
      },
      clearTimeout: (id) => void pending.delete(id as number),
      now: () => 0,
    };
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 50, timers });
    const reloads: string[][] = [];
    watcher.on("reloaded", ({ files }) => reloads.push(files));
    for (const word of ["a", "b", "c"]) {
      const seen = next(watcher, "change");
      save(userFile(), blocker(word));
      await seen;
    }
    expect(pending.size).toBe(1);
    const reloaded = next(watcher, "reloaded");
    for (const fn of pending.values()) fn();
    await reloaded;
    expect(reloads).toEqual([[userFile()]]);
    expect((await engine.fire(bash("tok-c"))).action).toBe("block");
    expect((await engine.fire(bash("tok-a"))).action).toBe("continue");
  });

  it("close removes the hooks and stops watching", async () => {
    save(userFile(), blocker("rm"));
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });
    await watcher.close();
    await watcher.close();
    expect(engine.size()).toBe(0);
    expect(await watcher.reload()).toBe(false);
    expect(engine.size()).toBe(0);
  });

  it.each([
    ["maxEventsPerSecond", 0],
    ["maxEventsPerSecond", Number.NaN],
    ["recheckMs", -5],
    ["recheckMs", Number.POSITIVE_INFINITY],
  ] as const)("refuses %s: %s, naming the option", async (key, value) => {
    const error = await watchHookSettings(new HookEngine(), { cwd, home }, { [key]: value }).catch(
      (e: unknown) => e,
    );
    expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
    expect(error).toMatchObject({ path: [key], message: expect.stringContaining(key) });
  });

  it("refuses a debounce that is not a number of milliseconds, naming the option", async () => {
    const error = await watchHookSettings(
      new HookEngine(),
      { cwd, home },
      {
        debounceMs: -1,
      },
    ).catch((e: unknown) => e);
    expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
    expect((error as HookError).message).toContain("debounceMs");
  });
});

describe("ConfigChange", () => {
  /** A user hook that refuses changes from `source`, saying which file it saw. */
  const refuse = (source: string) => ({
    hooks: {
      ConfigChange: [
        {
          matcher: source,
          hooks: [
            {
              type: "command",
              command: `sed -n 's/.*"file_path":"\\([^"]*\\)".*/refused \\1/p' >&2; exit 2`,
            },
          ],
        },
      ],
    },
  });
  const merged = (...parts: { hooks: Record<string, unknown> }[]) => ({
    hooks: Object.assign({}, ...parts.map((p) => p.hooks)),
  });

  it("a blocking ConfigChange hook keeps the old set; the refused file stays pending", async () => {
    save(userFile(), refuse("project_settings"));
    save(projectFile(), blocker("rm"));
    await trustProject({ cwd, home });
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 10 });

    const blocked = next(watcher, "problem");
    save(projectFile(), blocker("curl"));
    const problem = await blocked;
    expect(problem).toMatchObject({ reason: "blocked", files: [projectFile()] });
    expect(problem.message).toContain(`refused ${projectFile()}`);
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    // A change to a file nobody refuses does not carry the refused one in with it.
    const again = next(watcher, "problem");
    save(join(home, ".config", "agent", "settings.json"), {});
    expect(await again).toMatchObject({ reason: "blocked" });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    // Undo the refused change, and the rest loads.
    const reloaded = next(watcher, "reloaded");
    save(projectFile(), blocker("rm"));
    expect((await reloaded).files).toEqual([join(home, ".config", "agent", "settings.json")]);
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");
  });

  it("a managed (policy) change cannot be refused, and a new drop-in file is picked up", async () => {
    const managed = join(root, "etc", "managed-settings.json");
    save(managed, blocker("rm"));
    save(userFile(), refuse(""));
    const engine = new HookEngine();
    const load = { cwd, home, managedSettings: [managed] };
    watcher = await watchHookSettings(engine, load, { debounceMs: 10 });
    expect((await engine.fire(bash("tok-rm x"))).action).toBe("block");

    const dropIn = next(watcher, "reloaded");
    save(join(root, "etc", "managed-settings.d", "10-curl.json"), blocker("curl"));
    await dropIn;
    expect((await engine.fire(bash("tok-curl x"))).action).toBe("block");

    const user = next(watcher, "problem");
    save(userFile(), merged(refuse(""), blocker("ls")));
    expect(await user).toMatchObject({ reason: "blocked" });
  });

  describe("a storm of file events", () => {
    it("pauses watching past maxEventsPerSecond and re-checks on a timer: reloads stay bounded, and watching resumes once quiet", async () => {
      const pending = new Map<number, () => void>();
      let ids = 0;
      const timers: Timers = {
        setTimeout: (fn) => {
          pending.set(++ids, fn);
          return ids;
        },
        clearTimeout: (id) => void pending.delete(id as number),
        // One second that never ends: every event of the storm falls in it.
        now: () => 0,
      };
      const runTimers = () => {
        const due = [...pending.values()];
        pending.clear();
        for (const fn of due) fn();
      };
      const engine = new HookEngine();
      watcher = await watchHookSettings(
        engine,
        { cwd, home },
        { debounceMs: 50, timers, maxEventsPerSecond: 20, recheckMs: 1000 },
      );
      const changes: string[][] = [];
      const problems: string[] = [];
      let reloads = 0;
      watcher.on("change", ({ files }) => changes.push(files));
      watcher.on("problem", ({ reason, message }) => problems.push(`${reason}: ${message}`));
      watcher.on("reloaded", () => reloads++);
      const paused = next(watcher, "problem");
      let stop = false;
      void paused.then(() => (stop = true));
      // Saves one after another, each seen by the watcher before the next (a real storm).
      for (let i = 0; i < 5_000 && !stop; i++) {
        save(userFile(), blocker(`w${i}`));
        await new Promise((done) => setImmediate(done));
      }
      expect(await paused).toMatchObject({
        reason: "watch",
        message: expect.stringContaining("re-checked every 1000 ms"),
      });
      // What came before the pause was budgeted; nothing reloaded on its own, one timer waits.
      expect(changes.length).toBeLessThanOrEqual(20);
      await vi.waitFor(() => expect(pending.size).toBe(1));
      expect(reloads).toBe(0);
      save(userFile(), blocker("last"));
      // The re-check finds the new content and reloads it, once.
      const reloaded = next(watcher, "reloaded");
      runTimers();
      await reloaded;
      expect((await engine.fire(bash("tok-last"))).action).toBe("block");
      // Quiet re-checks reload nothing; after three of them the files are watched again.
      const resumed = next(watcher, "resumed");
      for (let quiet = 0; quiet < 3; quiet++) {
        await vi.waitFor(() => expect(pending.size).toBe(1));
        runTimers();
      }
      expect(await resumed).toEqual({ files: expect.arrayContaining([userFile()]) });
      expect(pending.size).toBe(0);
      expect(reloads).toBe(1);
      // Watched again: a save is seen as it happens.
      const changed = next(watcher, "change");
      save(userFile(), blocker("watched"));
      expect(await changed).toEqual({ files: [userFile()] });
      expect(problems).toHaveLength(1);
    });

    it("another process swapping .claude between a folder and a symlink: a bystander is served and reloads stay bounded", async () => {
      const elsewhere = join(root, "elsewhere");
      mkdirSync(join(elsewhere), { recursive: true });
      writeFileSync(join(elsewhere, "settings.json"), JSON.stringify(blocker("x")));
      const engine = new HookEngine();
      watcher = await watchHookSettings(engine, { cwd, home });
      let reloads = 0;
      watcher.on("reloaded", () => reloads++);
      const bystander = createServer((_req, res) => res.end("served"));
      await new Promise<void>((done) => bystander.listen(0, "127.0.0.1", done));
      const url = `http://127.0.0.1:${(bystander.address() as AddressInfo).port}/`;
      try {
        // Five hundred swaps in a tight loop, from another process.
        const storm = spawn(
          process.execPath,
          [
            "-e",
            `const fs = require("node:fs");
for (let i = 0; i < 500; i++) {
  fs.rmSync(".claude", { recursive: true, force: true });
  fs.mkdirSync(".claude");
  fs.rmSync(".claude", { recursive: true, force: true });
  fs.symlinkSync(${JSON.stringify(elsewhere)}, ".claude");
}`,
          ],
          { cwd, stdio: "ignore" },
        );
        const ended = new Promise((done) => storm.once("close", done));
        let running = true;
        void ended.then(() => (running = false));
        const waits: number[] = [];
        while (running) {
          const started = performance.now();
          expect(await (await fetch(url)).text()).toBe("served");
          waits.push(performance.now() - started);
        }
        await ended;
        expect(waits.length).toBeGreaterThan(0);
        // Served throughout, never held up for seconds by the watcher.
        expect(Math.max(...waits)).toBeLessThan(2000);
        // At most about one reload a second while the storm lasted, plus the last one.
        expect(reloads).toBeLessThan(40);
      } finally {
        await new Promise((done) => bystander.close(done));
      }
    }, 60_000);
  });
});
