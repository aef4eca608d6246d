import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HookEngine, type HookResult } from "@a3s-lab/hooks-core";
import { applyHookSettings, loadHookSettings } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { defineDemoEvents } from "./demo-events.js";

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
async function agentWatching(watched: string) {
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
  const agent = new Agent({ engine, permission: { defaultAnswer: "allow" } });
  /** The next FileChanged firing's result. */
  const nextFileChanged = () =>
    new Promise<HookResult>((resolve) => {
      const off = engine.on("fired", (record) => {
        if (record.event !== "FileChanged") return;
        off();
        resolve(record.result);
      });
    });
  return { agent, nextFileChanged };
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
});
