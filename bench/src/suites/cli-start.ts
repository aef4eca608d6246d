import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

const packagesDir = fileURLToPath(new URL("../../../packages", import.meta.url));
/** The installed CLI's entry: `bin` of `@a3s-lab/hooks-node`, which runs the built `dist/cli/a3s-hooks.js`. */
const bin = join(packagesDir, "node", "bin", "a3s-hooks.cjs");

/** Nanoseconds from spawning `node …args` to its first byte on stdout; the process must exit 0. */
function firstLine(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let first: bigint | undefined;
    let stderr = "";
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", () => {
      first ??= process.hrtime.bigint();
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 || first === undefined) {
        reject(new BenchError("TASK_FAILED", `node ${args.join(" ")} exited ${code}: ${stderr}`));
      } else resolve(Number(first - start));
    });
  });
}

/**
 * `a3s-hooks --help` and `a3s-hooks validate` (in a project without settings) as an installed
 * CLI runs them, from the built JavaScript, against a node that prints one line and exits.
 */
export const cliStartSuite: Suite = {
  id: "cli-start",
  title: "the CLI's start",
  async run({ profile, log }) {
    for (const dir of ["core", "node"]) {
      if (!existsSync(join(packagesDir, dir, "dist", "index.cjs"))) {
        throw new BenchError(
          "TASK_FAILED",
          `packages/${dir}/dist is missing: run \`npx -y pnpm@10 turbo run build\` first (this suite runs the built CLI)`,
        );
      }
    }
    const work = mkdtempSync(join(tmpdir(), "a3s-cli-start-"));
    try {
      const project = join(work, "project");
      const home = join(work, "home");
      mkdirSync(project);
      mkdirSync(home);
      const env = { ...process.env, HOME: home, NO_COLOR: "1" };
      const runs = {
        help: [bin, "--help"],
        validate: [bin, "validate"],
        node: ["-e", "process.stdout.write('ok\\n')"],
      } as const;
      const samples: Record<keyof typeof runs, number[]> = { help: [], validate: [], node: [] };
      const order = Object.keys(runs) as (keyof typeof runs)[];
      const n = Math.max(3, Math.ceil(profile.spawns / 4));
      log(`cli-start: ${n} starts of each`);
      for (const key of order) await firstLine(runs[key], project, env); // warm the file cache
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < order.length; k++) {
          const key = order[(k + i) % order.length]!;
          samples[key].push(await firstLine(runs[key], project, env));
        }
      }
      const baseline = side("`node -e` printing one line", summarize(samples.node));
      const goal = goals.medianBelow(300e6, "< 300 ms to the first line");
      const note =
        "Wall time from spawn to the first byte on stdout, in a fresh node process each time, startup included; the commands load the engine only when they run, so `--help` loads commander alone.";
      return {
        rows: [
          makeRow({
            id: "cli.start.help",
            what: "`a3s-hooks --help`, installed (built JavaScript)",
            ours: side("`node bin/a3s-hooks.cjs --help`", summarize(samples.help)),
            baseline,
            goal,
            smoke: profile.smoke,
            note,
          }),
          makeRow({
            id: "cli.start.validate",
            what: "`a3s-hooks validate` in a project without settings",
            ours: side("`node bin/a3s-hooks.cjs validate`", summarize(samples.validate)),
            baseline,
            goal,
            smoke: profile.smoke,
          }),
        ],
        pending: [],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
