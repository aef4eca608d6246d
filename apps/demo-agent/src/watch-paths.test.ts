import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HookEngine, type HookResult } from "@a3s-lab/hooks-core";
import { applyHookSettings, loadHookSettings } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent } from "./agent.js";
import type { AgentOptions } from "./agent-options.js";
import { defineDemoEvents } from "./demo-events.js";
import { type WatchedChange, WatchPaths } from "./watch-paths.js";

defineDemoEvents();

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-demo-watch-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A command hook script: prints `output(input)` as JSON, `input` being the hook's stdin. */
function script(name: string, output: string): string {
  const file = path.join(root, name);
  writeFileSync(
    file,
    `let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const input = JSON.parse(s);
  process.stdout.write(JSON.stringify(${output}));
});
`,
  );
  return `node ${JSON.stringify(file)}`;
}

/** An agent whose settings file has a SessionStart hook answering watchPaths and a FileChanged hook. */
async function agentWatching(watched: string, options: AgentOptions = {}) {
  const settingsFile = path.join(root, "settings.json");
  const hso = (event: string, rest: string) =>
    `{ hookSpecificOutput: { hookEventName: "${event}", ${rest} } }`;
  writeFileSync(
    settingsFile,
    JSON.stringify({
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: "command",
                command: script(
                  "start.mjs",
                  hso("SessionStart", `watchPaths: [${JSON.stringify(watched)}]`),
                ),
              },
            ],
          },
        ],
        FileChanged: [
          {
            matcher: path.basename(watched),
            hooks: [
              {
                type: "command",
                command: script(
                  "changed.mjs",
                  hso(
                    "FileChanged",
                    `additionalContext: "saw " + input.event + " of " + input.file_path`,
                  ),
                ),
              },
            ],
          },
        ],
      },
    }),
  );
  const settings = await loadHookSettings({
    cwd: root,
    home: root,
    files: [settingsFile],
    defaults: false,
  });
  expect(settings.problems).toEqual([]);
  // "verbose": the engine reports each firing's result, which the test waits on.
  const engine = new HookEngine({ auditLevel: "verbose" });
  applyHookSettings(engine, settings, { projectDir: root });
  const agent = new Agent({ ...options, engine, permission: { defaultAnswer: "allow" } });
  /** Every FileChanged firing's result, in order. */
  const firings: HookResult[] = [];
  engine.on("fired", (record) => {
    if (record.event === "FileChanged") firings.push(record.result);
  });
  /** The next FileChanged firing's result. */
  const nextFileChanged = () =>
    new Promise<HookResult>((resolve) => {
      const off = engine.on("fired", (record) => {
        if (record.event !== "FileChanged") return;
        off();
        resolve(record.result);
      });
    });
  return { agent, nextFileChanged, firings };
}

describe("watchPaths in the demo agent", () => {
  it("a SessionStart hook's watchPaths are watched: an outside write fires FileChanged for the other hook", async () => {
    const watched = path.join(root, "watched.env");
    writeFileSync(watched, "A=1\n");
    const { agent, nextFileChanged } = await agentWatching(watched);
    const session = await agent.createSession({ workdir: root });
    try {
      const fired = nextFileChanged();
      writeFileSync(watched, "A=2\n");
      const result = await fired;
      expect(result.event).toMatchObject({
        filePath: watched,
        fileName: "watched.env",
        event: "change",
      });
      expect(result.additionalContext).toBe(`saw change of ${watched}`);
    } finally {
      await agent.endSession(session);
    }
  });

  it("the watch closes with the session", async () => {
    const watched = path.join(root, "watched.env");
    writeFileSync(watched, "A=1\n");
    const { agent, nextFileChanged } = await agentWatching(watched);
    const session = await agent.createSession({ workdir: root });
    await agent.endSession(session);
    // A second session watches the same file: only its watcher may report the write.
    const other = await agent.createSession({ workdir: root });
    try {
      const fired = nextFileChanged();
      writeFileSync(watched, "A=3\n");
      expect((await fired).event.sessionId).toBe(other.id);
    } finally {
      await agent.endSession(other);
    }
  });

  it("a file tool's write to a watched file fires FileChanged once; an outside write afterwards fires it again", async () => {
    const watched = path.join(root, "watched.env");
    writeFileSync(watched, "A=1\n");
    let skippedWrite: (file: string) => void = () => {};
    const skipped = new Promise<string>((resolve) => (skippedWrite = resolve));
    const { agent, nextFileChanged, firings } = await agentWatching(watched, {
      onWatchSkipped: (_sessionId, file) => skippedWrite(file),
    });
    const session = await agent.createSession({ workdir: root });
    try {
      // The watcher's answer to the tool's write: skipped (right), or a second firing (wrong).
      const watcherSaw = Promise.race([
        skipped.then((file) => `skipped ${file}`),
        nextFileChanged().then(() => nextFileChanged().then(() => "fired a second time")),
      ]);
      const outcome = await agent.executeTool(session, "Write", {
        file_path: "watched.env",
        content: "A=2\n",
      });
      expect(outcome.status).toBe("ok");
      // The tool's own firing, in the turn: its context reaches the model.
      expect(firings.map((r) => r.additionalContext)).toEqual([`saw change of ${watched}`]);
      expect(await watcherSaw).toBe(`skipped ${watched}`);
      expect(firings).toHaveLength(1);

      // Written at once, inside chokidar's change throttle after the skipped event.
      const fired = nextFileChanged();
      writeFileSync(watched, "A=3\n");
      expect((await fired).event).toMatchObject({ filePath: watched, event: "change" });
      expect(firings).toHaveLength(2);
    } finally {
      await agent.endSession(session);
    }
  });
});

describe("WatchPaths.ownWrite", () => {
  it("skips the add of a file the agent creates in a watched folder, and still reports its unlink", async () => {
    const reported: [string, WatchedChange][] = [];
    let unlinked: () => void = () => {};
    const gone = new Promise<void>((resolve) => (unlinked = resolve));
    let skippedChange: (change: WatchedChange) => void = () => {};
    const skipped = new Promise<WatchedChange>((resolve) => (skippedChange = resolve));
    const watch = new WatchPaths(
      (file, change) => {
        reported.push([file, change]);
        if (change === "unlink") unlinked();
      },
      { onSkipped: (_file, change) => skippedChange(change) },
    );
    try {
      await watch.add([root]);
      const file = path.join(root, "new.txt");
      await watch.ownWrite(file, async () => {
        const handle = await open(file, "wx");
        try {
          await handle.write("made by the agent\n");
          return await handle.stat();
        } finally {
          await handle.close();
        }
      });
      expect(await skipped).toBe("add");
      unlinkSync(file);
      await gone;
      expect(reported).toEqual([[file, "unlink"]]);
    } finally {
      await watch.close();
    }
  });

  it("ownWrite passes a failed write's error on, and still runs a write outside the watched paths", async () => {
    const watch = new WatchPaths(() => {});
    try {
      await watch.add([path.join(root, "watched")]);
      const failure = new Error("disk full");
      await expect(
        watch.ownWrite(path.join(root, "watched"), () => Promise.reject(failure)),
      ).rejects.toBe(failure);
      let ran = false;
      await watch
        .ownWrite(path.join(root, "elsewhere", "x"), async () => {
          ran = true;
          throw new Error("not read");
        })
        .catch(() => {});
      expect(ran).toBe(true);
    } finally {
      await watch.close();
    }
  });

  it("an outside write made as the agent's write is skipped (inside chokidar's change throttle) is still reported", async () => {
    const file = path.join(root, "watched.env");
    writeFileSync(file, "A=1\n");
    let changed: (file: string) => void = () => {};
    const reported = new Promise<string>((resolve) => (changed = resolve));
    const watch = new WatchPaths(
      (f, change) => {
        if (change === "change") changed(f);
      },
      // The outside write lands at once: chokidar drops a second change this close to the first.
      { onSkipped: () => writeFileSync(file, "A=3, from outside\n") },
    );
    try {
      await watch.add([file]);
      await watch.ownWrite(file, async () => {
        const handle = await open(file, "r+");
        try {
          await handle.truncate(0);
          await handle.write("A=2\n", 0);
          return await handle.stat();
        } finally {
          await handle.close();
        }
      });
      expect(await reported).toBe(file);
    } finally {
      await watch.close();
    }
  });
});

describe("WatchPaths' bound on watched entries", () => {
  /** A folder of `n` files under the test's root. */
  function folder(name: string, n: number): string {
    const dir = path.join(root, name);
    mkdirSync(dir);
    for (let i = 0; i < n; i++) writeFileSync(path.join(dir, `${i}.txt`), "");
    return dir;
  }

  it("does not watch a folder whose files would pass the limit, nor any path after it, and says so", async () => {
    const small = folder("small", 3);
    const big = folder("big", 20);
    const after = folder("after", 1);
    const notes: string[] = [];
    const watch = new WatchPaths(() => {}, {
      maxWatchedEntries: 10,
      onLimit: (message) => notes.push(message),
    });
    try {
      expect(await watch.add([small, big, after])).toBe(2);
      expect(watch.paths).toEqual([small]);
      expect(notes).toEqual([
        "2 watchPaths not watched: watching them would pass the limit of 10 watched files and folders",
      ]);
      expect(await watch.add([folder("later", 1)])).toBe(1);
      expect(watch.paths).toEqual([small]);
    } finally {
      await watch.close();
    }
  });

  it("stops watching a watched folder that fills past the limit, and says so", async () => {
    const dir = folder("filled", 2);
    let note: (message: string) => void = () => {};
    const dropped = new Promise<string>((resolve) => (note = resolve));
    const watch = new WatchPaths(() => {}, { maxWatchedEntries: 6, onLimit: note });
    try {
      const before = inotifyWatches();
      await watch.add([dir]);
      expect(watch.paths).toEqual([dir]);
      for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `new-${i}.txt`), "");
      expect(await dropped).toBe(
        `${dir} is no longer watched: its files passed the limit of 6 watched files and folders`,
      );
      expect(watch.paths).toEqual([]);
      // The folder's watches and its files' are given back, not only the folder's.
      await vi.waitFor(() => expect(inotifyWatches()).toBe(before));
    } finally {
      await watch.close();
    }
  });
});

/** The inotify watches this process holds (Linux; 0 elsewhere). */
function inotifyWatches(): number {
  if (process.platform !== "linux") return 0;
  let count = 0;
  for (const fd of readdirSync("/proc/self/fdinfo")) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").match(/^inotify wd:/gm)?.length ?? 0;
    } catch {
      // Closed since it was listed.
    }
  }
  return count;
}
