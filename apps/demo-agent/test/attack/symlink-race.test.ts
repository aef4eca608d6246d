import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FolderSwapRace,
  startFolderSwapRace,
} from "../../../../test-support/folder-swap-race.ts";
import { editTool } from "../../src/tools/edit-tool.js";
import { globTool } from "../../src/tools/glob-tool.js";
import { grepTool } from "../../src/tools/grep-tool.js";
import { readTool } from "../../src/tools/read-tool.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { writeTool } from "../../src/tools/write-tool.js";

// Two folders inside the working directory are swapped, in loops run by other processes, for a
// symlink to a folder outside: `dir` is a real folder exchanged atomically with a symlink
// (renameat2 RENAME_EXCHANGE, through Python's ctypes), and `alias` is a symlink re-pointed
// between a folder inside and the outside one. Every tool call races those swaps; none may
// reach the outside.

/** Each phase stops after this many calls or this many milliseconds, whichever comes first. */
const CALLS = 1_500;
const PHASE_MS = 15_000;

const SECRET = "OUTSIDE-SECRET";
const INSIDE = "inside text";

let race: FolderSwapRace;
let workdir: string;
let outside: string;
const ctx = (): ToolContext => ({ workdir });

beforeAll(async () => {
  race = await startFolderSwapRace({
    prefix: "symlink-race-",
    inside: INSIDE,
    secret: SECRET,
    outsideFiles: ["only-outside.txt"],
    // The swappers give up by themselves after this long, even if nobody stops them.
    seconds: 90,
  });
  ({ project: workdir, outside } = race);
});

afterAll(() => race.stop());

type Outcome = "ok" | "refused" | "leak";

/** Run `call` up to CALLS times, two at a time, for at most PHASE_MS; count the outcomes. */
async function hammer(call: (i: number) => Promise<Outcome>) {
  const tally = { ok: 0, refused: 0, leak: 0 };
  const end = Date.now() + PHASE_MS;
  let next = 0;
  const lane = async () => {
    while (next < CALLS && Date.now() < end) tally[await call(next++)]++;
  };
  await Promise.all([lane(), lane()]);
  return tally;
}

/** A tool error (not found, not a folder, a symlink out) is what a lost race should cause. */
const refused = () => "refused" as const;

const folder = (i: number) => (i % 2 ? "alias" : "dir");

async function outsideFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(outside)) {
    files[name] = await readFile(path.join(outside, name), "utf8");
  }
  return files;
}

describe("file tools against folders swapped for a symlink to the outside", () => {
  it("Read never returns an outside file", async () => {
    const tally = await hammer(async (i) => {
      const read = await readTool.run({ file_path: `${folder(i)}/file.txt` }, ctx()).catch(refused);
      if (read === "refused") return read;
      return read.output.includes(SECRET) ? "leak" : "ok";
    });
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
  });

  // Before Write and Edit, whose calls leave up to CALLS new files inside: walked by every Glob
  // and Grep call after them, those made each call several times slower, and the phase spent
  // its whole time bound (the swappers spinning all along) on a fraction of its calls.
  it("Glob and Grep never list or search the outside folder", async () => {
    const tally = await hammer(async (i) => {
      if (i % 4 !== 0) {
        const found = await globTool.run({ pattern: "**/*.txt" }, ctx()).catch(refused);
        if (found === "refused") return found;
        return found.output.includes("only-outside") ? "leak" : "ok";
      }
      const hits = await grepTool.run({ pattern: SECRET }, ctx()).catch(refused);
      if (hits === "refused") return hits;
      return hits.output.includes(SECRET) ? "leak" : "ok";
    });
    expect(tally.leak, JSON.stringify(tally)).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
  });

  it("Write and Edit never create, truncate or change anything outside", async () => {
    const tally = await hammer(async (i) => {
      const file_path = `${folder(i)}/file.txt`;
      const outcomes = [
        await writeTool
          .run({ file_path: `${folder(i)}/w-${i}.txt`, content: "written" }, ctx())
          .catch(refused),
        await writeTool.run({ file_path, content: INSIDE }, ctx()).catch(refused),
        await editTool
          .run({ file_path, old_string: "text", new_string: "text" }, ctx())
          .catch(refused),
      ];
      return outcomes.every((o) => o === "refused") ? "refused" : "ok";
    });
    expect(await outsideFiles()).toEqual({ "file.txt": SECRET, "only-outside.txt": SECRET });
    expect(tally.ok, JSON.stringify(tally)).toBeGreaterThan(0);
  });
});
