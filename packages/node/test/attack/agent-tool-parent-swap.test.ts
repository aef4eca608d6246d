/**
 * An agent hook's Read opens a path, and its Glob and Grep walk the project's folders. Meanwhile a
 * folder of the project is swapped for a symlink to a folder outside it, by other processes in loops: `dir` is exchanged atomically with such a symlink (renameat2
 * RENAME_EXCHANGE through Python's ctypes, where available) and `alias` is re-pointed between a
 * folder inside and the outside one. No call may return the outside files' text or names. Each phase is
 * bounded in calls and time, the swappers stop by themselves, and everything lives in a
 * temporary folder that is removed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FolderSwapRace,
  startFolderSwapRace,
} from "../../../../test-support/folder-swap-race.ts";
import { runAgentTool } from "../../src/handlers/model/agent-tools.js";

/** Each phase stops after this many calls or this many milliseconds, whichever comes first. */
const CALLS = 2_000;
const PHASE_MS = 4_000;

const SECRET = "OUTSIDE-SECRET";
const INSIDE = "inside text";
/** A file only the outside folder holds: a listing that names it listed the outside. */
const MARKER = `${SECRET}-marker.txt`;

let race: FolderSwapRace;
let project: string;
const signal = new AbortController().signal;

beforeAll(async () => {
  race = await startFolderSwapRace({
    prefix: "a3s-agent-parent-swap-",
    inside: INSIDE,
    secret: SECRET,
    outsideFiles: [MARKER],
    // The swappers give up by themselves after this long, even if nobody stops them.
    seconds: 60,
  });
  project = race.project;
});

afterAll(() => race.stop());

/**
 * Run `call` up to CALLS times, two at a time, for at most PHASE_MS; count the answers: a leak
 * names or quotes the outside, `inside` is what a good answer holds.
 */
async function hammer(call: (i: number) => Promise<string>, inside = INSIDE) {
  const tally = { inside: 0, refused: 0, leak: 0 };
  const end = Date.now() + PHASE_MS;
  let next = 0;
  const lane = async () => {
    while (next < CALLS && Date.now() < end) {
      const answer = await call(next++);
      tally[answer.includes(SECRET) ? "leak" : answer.includes(inside) ? "inside" : "refused"]++;
    }
  };
  await Promise.all([lane(), lane()]);
  return tally;
}

const folder = (i: number) => (i % 2 ? "alias" : "dir");

describe("an agent verifier's tools against a folder swapped for a symlink to the outside", () => {
  it("Read never returns the outside file", async () => {
    const tally = await hammer((i) =>
      runAgentTool(project, "Read", JSON.stringify({ file_path: `${folder(i)}/file.txt` }), signal),
    );
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.inside, JSON.stringify(tally)).toBeGreaterThan(0);
  });

  it("Grep never searches the outside file", async () => {
    const tally = await hammer((i) =>
      runAgentTool(
        project,
        "Grep",
        JSON.stringify({ pattern: `${SECRET}|${INSIDE}`, path: folder(i) }),
        signal,
      ),
    );
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.inside, JSON.stringify(tally)).toBeGreaterThan(0);
  });

  it("Glob never lists the outside folder", async () => {
    // The whole project, and the swapped folders themselves: every walk meets them.
    const paths = [undefined, "dir", "alias"];
    const tally = await hammer(
      (i) =>
        runAgentTool(
          project,
          "Glob",
          JSON.stringify({ pattern: "**/*.txt", path: paths[i % paths.length] }),
          signal,
        ),
      "file.txt",
    );
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.inside, JSON.stringify(tally)).toBeGreaterThan(0);
  });

  it("Grep never searches the outside folder through a walk of the whole project", async () => {
    const tally = await hammer(() =>
      runAgentTool(project, "Grep", JSON.stringify({ pattern: `${SECRET}|${INSIDE}` }), signal),
    );
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.inside, JSON.stringify(tally)).toBeGreaterThan(0);
  });
});
