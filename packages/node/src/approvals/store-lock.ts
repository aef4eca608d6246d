import { mkdir, open, readFile, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { ApprovalError } from "./approval-error.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; alive all the same.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Take the embedded store's lock: a file beside the data folder holding the owner's pid.
 * PGlite's files are not safe for two processes at once, so a second live opener is refused
 * with `STORE_BUSY`; a lock left by a process that died (kill -9) is taken over. Resolves to
 * the release.
 */
export async function lockStore(dataDir: string): Promise<() => Promise<void>> {
  const path = `${dataDir}.lock`;
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
      throw new ApprovalError(
        "STORE_BUSY",
        `store: ${dataDir} is open in process ${pid}; the embedded store has one process at a time (share a PostgreSQL store between processes)`,
        { path: ["store"], details: { pid } },
      );
    }
    // The owner died without releasing (or had not written its pid yet): take it over.
    await rm(path, { force: true });
  }
  throw new ApprovalError("STORE_BUSY", `store: could not lock ${dataDir}`, { path: ["store"] });
}
