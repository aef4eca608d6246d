import { readFileSync } from "node:fs";

/**
 * True while a process exists and is not a zombie. Check a killed process with
 * `await expect.poll(() => isAlive(pid)).toBe(false)`: its pipes close while it is still exiting,
 * so the moment a hook's run ends it may not be a zombie yet. A killed hook's orphans are re-parented to
 * PID 1, which in a container may never reap them, so "kill(pid, 0) succeeds" is not "alive".
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
