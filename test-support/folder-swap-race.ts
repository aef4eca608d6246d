import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Exchange `dir` with `.dir-link` (a symlink to the outside) atomically: renameat2 RENAME_EXCHANGE. */
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

/** A project whose folders other processes keep swapping for a symlink to a folder outside it. */
export interface FolderSwapRace {
  /** The project: `dir/file.txt` and `real/file.txt` hold the inside text; `alias` → `real` or outside. */
  project: string;
  /** The outside folder: `file.txt` and the other files asked for hold the secret. */
  outside: string;
  /** Stop the swappers and remove everything; throws when a swapper stopped early. */
  stop(): Promise<void>;
}

/**
 * Start the race: `dir` is exchanged atomically with a symlink to `outside` (through Python's
 * ctypes, where available; otherwise `dir` stays a plain folder) and `alias` is re-pointed
 * between `real` and `outside`, in loops run by other processes that give up by themselves
 * after `seconds`. Everything lives in a temporary folder.
 */
export async function startFolderSwapRace(options: {
  prefix: string;
  inside: string;
  secret: string;
  /** Names of files in the outside folder besides `file.txt`. */
  outsideFiles?: readonly string[];
  seconds: number;
}): Promise<FolderSwapRace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), options.prefix)));
  const project = join(base, "project");
  const outside = join(base, "outside");
  for (const folder of ["dir", "real"]) {
    await mkdir(join(project, folder), { recursive: true });
    await writeFile(join(project, folder, "file.txt"), options.inside);
  }
  await mkdir(outside);
  for (const name of ["file.txt", ...(options.outsideFiles ?? [])]) {
    await writeFile(join(outside, name), options.secret);
  }
  await symlink(outside, join(project, ".dir-link"));
  await symlink("real", join(project, "alias"));

  const swappers: ChildProcess[] = [];
  const start = async (command: string, args: string[]) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    swappers.push(child);
    await once(child.stdout!, "data");
  };
  const seconds = String(options.seconds);
  await start(process.execPath, ["-e", REPOINTER, project, outside, seconds]);
  if (spawnSync("python3", ["-c", "import ctypes"]).status === 0) {
    await start("python3", ["-c", EXCHANGER, project, seconds]);
  }

  const stop = async () => {
    const early = swappers.filter((child) => child.exitCode !== null);
    for (const child of swappers) {
      child.kill("SIGKILL");
      if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    }
    await rm(base, { recursive: true, force: true });
    if (early.length > 0) throw new Error("a swapper stopped early: the race did not run");
  };
  return { project, outside, stop };
}
