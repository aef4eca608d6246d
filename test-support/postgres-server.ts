import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where Debian's `postgresql` package puts the server programs (newest major first). */
function binDir(): string | undefined {
  for (const major of ["17", "16", "15", "14", "13"]) {
    const dir = `/usr/lib/postgresql/${major}/bin`;
    if (existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * A throwaway PostgreSQL server: `initdb` in a temporary folder, `pg_ctl start` on a free port
 * bound to 127.0.0.1 with trust authentication, stopped and removed by `stop()`. PostgreSQL
 * refuses to run as root, so as root the programs run as the `postgres` user. Throws, saying
 * what to install, when the server programs are missing: a suite must not pass without it.
 */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = binDir();
  if (bin === undefined) {
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): the PostgreSQL approval-store tests cannot run. Install Debian's package: apt-get install -y postgresql (the repository's `pnpm test` does this through scripts/ensure-system-deps.mjs).",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const as = (program: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args])
      : run(path.join(bin, program), args);
  const dir = await mkdtemp(path.join(os.tmpdir(), "a3s-pg-"));
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  const data = path.join(dir, "data");
  await as("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  await as("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-w",
    "-t",
    "120",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
