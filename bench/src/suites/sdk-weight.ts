import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

const packagesDir = fileURLToPath(new URL("../../../packages", import.meta.url));
/** What `npm install @a3s-lab/box` brings: box and the packages of ours it depends on. */
const BOX_PACKAGES = ["core", "node", "browser", "client"] as const;

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new BenchError(
      "TASK_FAILED",
      `${cmd} ${args.join(" ")} in ${cwd}: ${e.stderr || e.stdout || String(error)}`,
    );
  }
}

/** Bytes of every file below `dir`, as `du --apparent-size` counts them (links not followed). */
function bytesBelow(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) total += statSync(path).size;
    }
  }
  return total;
}

const NPM_INSTALL = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];

/** A fresh project with `dependencies` installed by plain npm, as a user's would be. */
function installProject(dir: string, dependencies: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }),
  );
  run("npm", NPM_INSTALL, dir);
}

/** Milliseconds one `import()` of `specifier` takes in a fresh node process (startup excluded). */
function importTime(specifier: string, cwd: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const out = run(process.execPath, ["--input-type=module", "-e", script], cwd);
  const ms = Number(out);
  if (!Number.isFinite(ms))
    throw new BenchError("TASK_FAILED", `import ${specifier}: printed ${out}`);
  return ms * 1e6;
}

/**
 * `@a3s-lab/box` as a user gets it: our four packages packed (their built `dist`), installed
 * with plain npm into an empty project; its size on disk and the time `import("@a3s-lab/box")`
 * takes in Node, each against `@grpc/grpc-js` alone, which any gRPC client pays.
 */
export const sdkWeightSuite: Suite = {
  id: "sdk-weight",
  title: "the SDK's weight",
  async run({ profile, log }) {
    for (const dir of BOX_PACKAGES) {
      if (!existsSync(join(packagesDir, dir, "dist", "index.js"))) {
        throw new BenchError(
          "TASK_FAILED",
          `packages/${dir}/dist is missing: run \`npx -y pnpm@10 turbo run build\` first (this suite measures the packed packages)`,
        );
      }
    }
    const work = mkdtempSync(join(tmpdir(), "a3s-sdk-weight-"));
    try {
      log("sdk-weight: packing and installing @a3s-lab/box and @grpc/grpc-js");
      const tarballs: Record<string, string> = {};
      for (const dir of BOX_PACKAGES) {
        const before = new Set(readdirSync(work));
        run("npx", ["-y", "pnpm@10", "pack", "--pack-destination", work], join(packagesDir, dir));
        const file = readdirSync(work).find((f) => !before.has(f) && f.endsWith(".tgz"));
        if (file === undefined)
          throw new BenchError("TASK_FAILED", `pnpm pack made nothing in packages/${dir}`);
        const name = JSON.parse(
          run("tar", ["-xOzf", join(work, file), "package/package.json"], work),
        ).name;
        tarballs[name] = `file:${join(work, file)}`;
      }
      const grpcVersion = JSON.parse(
        run(
          "tar",
          ["-xOzf", tarballs["@a3s-lab/hooks-node"]!.slice(5), "package/package.json"],
          work,
        ),
      ).dependencies["@grpc/grpc-js"] as string;
      const box = join(work, "box");
      const grpc = join(work, "grpc");
      // Box depends on the other three by version: name their tarballs too, as a registry would serve them.
      installProject(box, tarballs);
      installProject(grpc, { "@grpc/grpc-js": grpcVersion });
      // Our own tarballs are in box's node_modules besides the package: count the install only.
      const boxBytes = bytesBelow(join(box, "node_modules"));
      const grpcBytes = bytesBelow(join(grpc, "node_modules"));

      for (const specifier of ["@a3s-lab/box", "@grpc/grpc-js", "@a3s-lab/hooks-node"]) {
        importTime(specifier, box); // the file system cache, warm for every side alike
      }
      const samples: Record<"box" | "grpc" | "node", number[]> = { box: [], grpc: [], node: [] };
      const order = [
        ["box", "@a3s-lab/box"],
        ["grpc", "@grpc/grpc-js"],
        ["node", "@a3s-lab/hooks-node"],
      ] as const;
      const imports = Math.max(3, Math.ceil(profile.spawns / 2));
      for (let i = 0; i < imports; i++) {
        // Rotate who goes first, as `alternate` does.
        for (let k = 0; k < order.length; k++) {
          const [key, specifier] = order[(k + i) % order.length]!;
          samples[key].push(importTime(specifier, box));
        }
      }
      const installed = (bytes: number) => ({
        n: 1,
        median: bytes,
        p99: bytes,
        min: bytes,
        max: bytes,
        mean: bytes,
      });
      return {
        rows: [
          makeRow({
            id: "sdk.box.import",
            what: "importing `@a3s-lab/box` in Node",
            ours: side('`import("@a3s-lab/box")`, packed and installed', summarize(samples.box)),
            baseline: side('`import("@grpc/grpc-js")` alone', summarize(samples.grpc)),
            goal: goals.none(),
            smoke: profile.smoke,
            note: "In a fresh node process each time, startup excluded. The gRPC transport comes from `@a3s-lab/hooks-node/grpc-client`, which loads neither the hook server nor the settings loader, the CLI or YAML.",
          }),
          makeRow({
            id: "sdk.hooks-node.import",
            what: "importing all of `@a3s-lab/hooks-node` (what box loaded before `./grpc-client`)",
            ours: side('`import("@a3s-lab/hooks-node")`', summarize(samples.node)),
            baseline: side('`import("@a3s-lab/box")`', summarize(samples.box)),
            goal: goals.none(),
            smoke: profile.smoke,
          }),
          makeRow({
            id: "sdk.box.install",
            what: "installing `@a3s-lab/box` with npm",
            ours: side("`node_modules` of `npm install @a3s-lab/box`", installed(boxBytes), "B"),
            baseline: side(
              `\`node_modules\` of \`npm install @grpc/grpc-js@${grpcVersion}\``,
              installed(grpcBytes),
              "B",
            ),
            goal: goals.none(),
            smoke: profile.smoke,
            note: "Bytes of every file, as `du --apparent-size` counts them: box and its dependencies, our packages packed from their built `dist`. Box still installs all of `@a3s-lab/hooks-node`'s dependencies (YAML, commander, RE2 for the server's patterns), which it no longer loads.",
          }),
        ],
        pending: [],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
