import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHookSources } from "../src/node-hook-sources.js";
import { runScenario } from "../src/run-command.js";

/**
 * A storm of file events in the working directory (a busy build, another program's temp files)
 * pauses the settings watcher just before the agent edits a settings file. The watcher's notice
 * says so, but decides nothing: `run` must keep waiting for the change to be decided, which a
 * re-check of the files brings, and ConfigChange must still fire before the run ends.
 */
let dir: string;
let lines: string[];
let fired: string[];

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-demo-storm-")));
  const work = path.join(dir, "work");
  // 400 files made and removed in the working directory (a watched folder) before the Write:
  // twice the 200 events a second that pause the watcher.
  const storm = `for i in $(seq 400); do : > "storm-$i"; done; rm -f storm-*`;
  const settings = path.join(dir, "storm-settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: storm }] }] },
    }),
  );
  const events = path.join(dir, "events.jsonl");
  lines = [];
  await runScenario({
    write: (line) => lines.push(line),
    color: false,
    workdir: work,
    home: path.join(dir, "home"),
    settingsFiles: [settings],
    hookSources: nodeHookSources({ trustProjectSkills: true }),
    eventsFile: events,
    steps: [
      {
        caption: "edit the settings during a storm of file events",
        prompt: "write .claude/settings.json: {}\\n",
        changesSettings: true,
      },
    ],
  });
  fired = readFileSync(events, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { event: { eventType: string } }).event.eventType);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("run: a settings edit while a storm of file events pauses the watcher", () => {
  it("shows the pause, then the decision the re-check brings", () => {
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const paused = at(/settings watch paused: more than 200 file events in a second/);
    const refused = at(/✖ settings change refused/);
    const report = at(/settings not reloaded/);
    expect(paused, lines.join("\n")).toBeGreaterThan(-1);
    expect(refused, lines.join("\n")).toBeGreaterThan(paused);
    expect(report).toBeGreaterThan(refused);
  });

  it("fires ConfigChange before the session ends", () => {
    expect(fired).toContain("ConfigChange");
    expect(fired.indexOf("ConfigChange")).toBeLessThan(fired.indexOf("SessionEnd"));
  });
});
