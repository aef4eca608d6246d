/**
 * An agent hook's Read checks a path's real location, then opens it; Grep opens the files a
 * walk listed. In between, a folder of the project is swapped for a symlink to a folder outside
 * it, by other processes in loops: `dir` is exchanged atomically with such a symlink (renameat2
 * RENAME_EXCHANGE through Python's ctypes, where available) and `alias` is re-pointed between a
 * folder inside and the outside one. No call may return the outside file's text. Each phase is
 * bounded in calls and time, the swappers stop by themselves, and everything lives in a
 * temporary folder that is removed.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentTool } from "../../src/handlers/agent-tools.js";

/** Each phase stops after this many calls or this many milliseconds, whichever comes first. */
const CALLS = 2_000;
const PHASE_MS = 4_000;
/** The swappers give up by themselves after this long, even if nobody stops them. */
const SWAPPER_SECONDS = 60;

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
const [project, outside, seconds] = process.argv.slice(1);
const end = Date.now() + Number(seconds) * 1000;
process.stdout.write("ready\\n");
for (let i = 0; Date.now() < end; i++) {
  const tmp = project + "/.alias-" + (i % 2);
  symlinkSync(i % 2 ? outside : "real", tmp);
  renameSync(tmp, project + "/alias");
}
`;

let base: string;
let project: string;
const swappers: ChildProcess[] = [];
const signal = new AbortController().signal;

async function start(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  swappers.push(child);
  await once(child.stdout!, "data");
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "a3s-agent-parent-swap-")));
  project = join(base, "project");
  const outside = join(base, "outside");
  for (const folder of ["dir", "real"]) {
    await mkdir(join(project, folder), { recursive: true });
    await writeFile(join(project, folder, "file.txt"), INSIDE);
  }
  await mkdir(outside);
  await writeFile(join(outside, "file.txt"), SECRET);
  await symlink(outside, join(project, ".dir-link"));
  await symlink("real", join(project, "alias"));
  await start(process.execPath, ["-e", REPOINTER, project, outside, String(SWAPPER_SECONDS)]);
  // Without Python's ctypes `dir` stays a plain folder and only the re-pointed symlink races.
  if (spawnSync("python3", ["-c", "import ctypes"]).status === 0) {
    await start("python3", ["-c", EXCHANGER, project, String(SWAPPER_SECONDS)]);
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

/** Run `call` up to CALLS times, two at a time, for at most PHASE_MS; count the answers. */
async function hammer(call: (i: number) => Promise<string>) {
  const tally = { inside: 0, refused: 0, leak: 0 };
  const end = Date.now() + PHASE_MS;
  let next = 0;
  const lane = async () => {
    while (next < CALLS && Date.now() < end) {
      const answer = await call(next++);
      tally[answer.includes(SECRET) ? "leak" : answer.includes(INSIDE) ? "inside" : "refused"]++;
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
});
