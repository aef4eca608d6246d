import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHookSources } from "../src/node-hook-sources.js";
import { runScenario } from "../src/run-command.js";

/**
 * The settings watcher answers on its own time. Here a PostToolUse hook holds the turn open until
 * the ConfigChange the edit causes has fired, the interleaving a loaded machine produces now and
 * then. The transcript must still show the refusal after the turn, never inside it.
 */
let dir: string;
let lines: string[];
let order: string[];
let marker: string;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-demo-order-")));
  marker = path.join(dir, "config-change-fired");
  // Waits for the ConfigChange hook's marker however long a loaded machine takes to fire it (a
  // 5 s bound was not enough beside the approval stores' tests); the bound is only a hang guard
  // under the hook's own 60 s timeout, and the test fails if the marker never comes.
  const waitForMarker = `for i in $(seq 2500); do [ -f '${marker}' ] && exit 0; sleep 0.02; done; exit 0`;
  const settings = path.join(dir, "order-settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        ConfigChange: [{ hooks: [{ type: "command", command: `touch '${marker}'` }] }],
        PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: waitForMarker }] }],
      },
    }),
  );
  const events = path.join(dir, "events.jsonl");
  lines = [];
  await runScenario({
    write: (line) => lines.push(line),
    color: false,
    workdir: path.join(dir, "work"),
    home: path.join(dir, "home"),
    settingsFiles: [settings],
    hookSources: nodeHookSources({ trustProjectSkills: true }),
    eventsFile: events,
    steps: [
      {
        caption: "edit the settings",
        prompt: "write .claude/settings.json: {}\\n",
        changesSettings: true,
      },
    ],
  });
  order = readFileSync(events, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { event: { eventType: string } }).event.eventType);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("run: what the settings watcher reports", () => {
  it("fired inside the turn (the interleaving under test)", () => {
    expect(existsSync(marker)).toBe(true);
    expect(order.indexOf("ConfigChange")).toBeGreaterThan(-1);
    expect(order.indexOf("ConfigChange")).toBeLessThan(order.lastIndexOf("Stop"));
  });

  it("is shown after the turn's own lines, refusal then report", () => {
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const wrote = at(/↳ wrote 3 bytes to \.claude\/settings\.json/);
    const stop = at(/■ stop/);
    const refused = at(/✖ settings change refused/);
    const report = at(/settings not reloaded/);
    expect(wrote).toBeGreaterThan(-1);
    expect(stop).toBeGreaterThan(wrote);
    expect(refused).toBeGreaterThan(stop);
    expect(report).toBeGreaterThan(refused);
  });
});
