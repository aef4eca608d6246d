import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
/** The swappers give up by themselves after this long, even if nobody stops them. */
const SWAPPER_SECONDS = 90;

const SECRET = "OUTSIDE-SECRET";
const INSIDE = "inside text";

const EXCHANGER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1] + "/dir"), os.fsencode(sys.argv[1] + "/.dir-link")
end = time.monotonic() + float(sys.argv[2])
print("ready", flush=True)
while time.monotonic() < end:
    if libc.renameat2(-100, a, -100, b, 2) != 0:  # AT_FDCWD, RENAME_EXCHANGE
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

/** Re-point `alias` between `real` (inside) and the outside folder; rename makes it atomic. */
const REPOINTER = `
const { renameSync, symlinkSync } = require("node:fs");
const [ws, outside, seconds] = process.argv.slice(1);
const end = Date.now() + Number(seconds) * 1000;
process.stdout.write("ready\\n");
for (let i = 0; Date.now() < end; i++) {
  const tmp = ws + "/.alias-" + (i % 2);
  symlinkSync(i % 2 ? outside : "real", tmp);
  renameSync(tmp, ws + "/alias");
}
`;

let base: string;
let workdir: string;
let outside: string;
const swappers: ChildProcess[] = [];
const ctx = (): ToolContext => ({ workdir });

async function start(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  swappers.push(child);
  await once(child.stdout!, "data");
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "symlink-race-")));
  workdir = path.join(base, "ws");
  outside = path.join(base, "outside");
  for (const folder of ["dir", "real"]) {
    await mkdir(path.join(workdir, folder), { recursive: true });
    await writeFile(path.join(workdir, folder, "file.txt"), INSIDE);
  }
  await mkdir(outside);
  await writeFile(path.join(outside, "file.txt"), SECRET);
  await writeFile(path.join(outside, "only-outside.txt"), SECRET);
  await symlink(outside, path.join(workdir, ".dir-link"));
  await symlink("real", path.join(workdir, "alias"));
  await start(process.execPath, ["-e", REPOINTER, workdir, outside, String(SWAPPER_SECONDS)]);
  // The atomic exchange needs Python's ctypes; without it `dir` stays a plain folder and only
  // the re-pointed symlink is raced.
  if (spawnSync("python3", ["-c", "import ctypes"]).status === 0) {
    await start("python3", ["-c", EXCHANGER, workdir, String(SWAPPER_SECONDS)]);
  }
});

afterAll(async () => {
  for (const child of swappers) {
    expect(child.exitCode, "a swapper stopped early").toBeNull();
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  await rm(base, { recursive: true, force: true });
});

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
});
