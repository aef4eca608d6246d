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
  const events = path.join(dir, "events.jsonl");
  // Waits until the ConfigChange firing is over and in the event log, however long a loaded
  // machine takes (a 5 s bound was not enough beside the approval stores' tests). Not for the
  // ConfigChange hook's marker: that is there as the hook runs, and the firing ends after it,
  // which on a loaded machine came after the turn's Stop now and then. The bound is only a hang
  // guard under the hook's own 60 s timeout; the test fails if the firing never comes.
  const waitForMarker = `for i in $(seq 2500); do grep -q '"eventType":"ConfigChange"' '${events}' 2>/dev/null && exit 0; sleep 0.02; done; exit 0`;
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
