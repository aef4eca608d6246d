// `pnpm bench`: bundle the benchmark with esbuild, then run the bundle in a fresh node.
//
// Why bundle instead of `tsx`: tsx compiles with esbuild's keepNames, which wraps every
// function in a `__name()` call that runs Object.defineProperty each time a closure is made.
// In closure-heavy code (the engine's per-hook callbacks) that was a third of the time, a cost
// our users never pay: tsup builds without it. Bundling with the `@a3s-lab/source` condition
// measures the packages' current source the way tsup compiles it, with no build step first.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = dirname(fileURLToPath(import.meta.url));
// One folder per run, removed at the end: a test and a benchmark running at once must not
// overwrite each other's bundle.
const dist = join(root, ".tmp", `dist-${process.pid}`);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// Third-party packages stay external (loaded from node_modules as users load them); our own
// packages are bundled from source. picomatch is bundled: its `picomatch/posix` subpath has no
// ESM entry for node to load.
const external = Object.keys(pkg.dependencies).filter(
  (d) => !d.startsWith("@a3s-lab/") && d !== "picomatch",
);

// Our packages find files next to their modules (hooks.proto) through import.meta.url; in a
// bundle that would point into .tmp/dist, so give each module its own source file's URL back.
const packagesDir = join(root, "..", "packages");
const keepModuleUrls = {
  name: "keep-module-urls",
  setup(b) {
    b.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, async (args) => {
      if (!args.path.startsWith(packagesDir)) return undefined;
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: {
    main: "src/main.ts",
    "memory-churn": "src/children/memory-churn.ts",
    "grpc-echo-client": "src/children/grpc-echo-client.ts",
    "ws-echo-client": "src/children/ws-echo-client.ts",
    "hook-client": "src/children/hook-client.ts",
    // The MCP proxy's bin, which the mcp-proxy suite starts as an MCP client would.
    "a3s-hooks-mcp": "../packages/mcp/src/bin.ts",
  },
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@a3s-lab/source"],
  external,
  // CommonJS dependencies bundled into ESM need a real `require` for node built-ins.
  banner: {
    js: 'import { createRequire as __benchRequire } from "node:module"; const require = __benchRequire(import.meta.url);',
  },
  sourcemap: "linked",
  plugins: [keepModuleUrls],
  logLevel: "warning",
});

// `--cpu-prof`: profile the run and every child process it starts (node refuses the flag in
// NODE_OPTIONS), one .cpuprofile per process in .tmp/profiles, for Chrome DevTools.
const args = process.argv.slice(2);
const profile = args.includes("--cpu-prof");
const profileDir = join(root, ".tmp", "profiles");
const nodeFlags = ["--expose-gc", "--enable-source-maps"];
if (profile) nodeFlags.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`);

const child = spawn(
  process.execPath,
  [...nodeFlags, join(dist, "main.mjs"), ...args.filter((a) => a !== "--cpu-prof")],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      A3S_BENCH_DIST: dist,
      A3S_BENCH_ROOT: root,
      ...(profile ? { A3S_BENCH_CPU_PROF: profileDir } : {}),
    },
  },
);
child.on("exit", (code, signal) => {
  rmSync(dist, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 1 : 0);
});
