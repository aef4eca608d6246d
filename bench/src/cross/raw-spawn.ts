import { spawn } from "node:child_process";
import { BenchError } from "../bench-error.js";

/** What a raw spawn saw. */
export interface SpawnResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The command-hook baseline: `/bin/sh -c command`, write `stdin`, read stdout and stderr to the
 * end, wait for the exit. Nothing else: no process group, no timeout bookkeeping, no parsing.
 * That is the least any executor must do, so its cost is the floor ours is measured against.
 * `detached` puts the child in a session and process group of its own (`setsid`), as an
 * executor that can kill a hook's whole process tree must; measured on its own, it shows what
 * that requirement costs apart from the executor.
 *
 * @example
 * ```ts
 * const { code, stdout } = await rawSpawn("cat", "hello");
 * ```
 */
export function rawSpawn(
  command: string,
  stdin: string | Uint8Array,
  timeoutMs = 10_000,
  options: { detached?: boolean } = {},
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: options.detached === true,
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new BenchError(
          "TIMEOUT",
          `raw spawn: ${JSON.stringify(command)} did not exit within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new BenchError("CHILD_FAILED", `raw spawn: ${error.message}`, { cause: error }));
    });
    // A script that exits without reading its stdin closes the pipe under us: not our failure.
    child.stdin.on("error", () => undefined);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

/** `count` raw spawns at once: the baseline for several command hooks on one event. */
export function rawSpawnAll(
  count: number,
  command: string,
  stdin: string | Uint8Array,
): Promise<SpawnResult[]> {
  return Promise.all(Array.from({ length: count }, () => rawSpawn(command, stdin)));
}
