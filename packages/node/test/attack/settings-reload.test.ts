/**
 * Settings files rewritten again and again while the agent keeps firing: every firing must see
 * exactly one generation of the hooks, never none and never two. Each generation's only hook
 * answers with its generation number as additional context, so a firing that saw both sets
 * would carry two lines, and one that saw neither would carry none.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SettingsWatcher, watchHookSettings } from "../../src/settings/watch-hook-settings.js";

const GENERATIONS = 15;
const FIRING_LOOPS = 3;

let root: string;
let watcher: SettingsWatcher | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-reload-attack-"));
});
afterEach(async () => {
  await watcher?.close();
  rmSync(root, { recursive: true, force: true });
});

function generation(n: number): string {
  const answer = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: `gen-${n}` },
  });
  return JSON.stringify({
    hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `echo '${answer}'` }] }] },
  });
}

describe("reloading settings under continuous firing", () => {
  it("every firing sees exactly one generation of hooks", async () => {
    const cwd = join(root, "project");
    const home = join(root, "home");
    const file = join(home, ".claude", "settings.json");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(file, generation(0));
    const engine = new HookEngine();
    watcher = await watchHookSettings(engine, { cwd, home }, { debounceMs: 5 });

    const seen = new Map<string, number>();
    let done = false;
    const loop = async () => {
      while (!done) {
        const result = await engine.fire(
          createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
        );
        const context = result.additionalContext ?? "(none)";
        seen.set(context, (seen.get(context) ?? 0) + 1);
        // A firing with no hooks settles without leaving the microtask queue: let I/O in.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const loops = Array.from({ length: FIRING_LOOPS }, loop);
    // Each generation is fired at least once before the next is written, so a fast reload
    // cannot race past the firings this test is about.
    const firedWith = async (n: number) => {
      while (!seen.has(`gen-${n}`)) await new Promise((resolve) => setImmediate(resolve));
    };
    await firedWith(0);

    for (let n = 1; n <= GENERATIONS; n++) {
      const reloaded = new Promise<void>((resolve) => {
        const stop = watcher!.on("reloaded", ({ settings }) => {
          if (settings.hooks[0]?.definition.command?.includes(`gen-${n}`)) {
            stop();
            resolve();
          }
        });
      });
      const temp = `${file}.${n}.tmp`;
      writeFileSync(temp, generation(n));
      renameSync(temp, file);
      await reloaded;
      expect(engine.size("PreToolUse")).toBe(1);
      await firedWith(n);
    }
    done = true;
    await Promise.all(loops);

    // "(none)" would be a firing between the sets, "gen-3\ngen-4" one that saw both.
    expect([...seen.keys()].filter((c) => !/^gen-\d+$/.test(c))).toEqual([]);
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(GENERATIONS);
  }, 60_000);
});
