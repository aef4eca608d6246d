#!/usr/bin/env node
// The Python SDK's test command: generate the gRPC stubs from hooks.proto, export core's event
// catalogue for the drift tests, type-check with mypy (when Debian's python3-mypy is there), then
// run pytest against real demo agents, with a JUnit report that scripts/summarize-tests.mjs
// counts. Debian's interpreter: a pyenv or venv python3 on PATH cannot see Debian's modules.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const pkg = resolve(import.meta.dirname, "..");
const repo = resolve(pkg, "..", "..");
const python =
  process.env.A3S_PYTHON ?? (existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
const env = { ...process.env, PYTHONPATH: join(pkg, "src"), PYTHONDONTWRITEBYTECODE: "1" };

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function step(cmd, args, options) {
  const status = run(cmd, args, options);
  if (status !== 0) {
    console.error(`✖ ${cmd} ${args.join(" ")} exited with ${status}`);
    process.exit(status);
  }
}

const build = join(pkg, "build");
mkdirSync(build, { recursive: true });
rmSync(join(pkg, "test-artifacts"), { recursive: true, force: true });
step(python, [join(pkg, "build_stubs.py")], { cwd: pkg });
// The TypeScript programs the tests start, bundled once (scripts/bundle-programs.ts); the tests
// find them through A3S_PY_PROGRAMS, and run them with tsx when it is not set (pytest by hand).
const programsFile = join(build, "programs.json");
step(
  "node",
  [
    "--conditions=@a3s-lab/source",
    "--import",
    "tsx",
    join(pkg, "scripts", "bundle-programs.ts"),
    programsFile,
  ],
  { cwd: repo },
);
const { outdir, programs } = JSON.parse(readFileSync(programsFile, "utf8"));
// Also when a step fails: step() ends the process.
process.on("exit", () => rmSync(outdir, { recursive: true, force: true }));
env.A3S_PY_PROGRAMS = programsFile;
step(
  "node",
  [
    "--conditions=@a3s-lab/source",
    programs[join(pkg, "scripts", "export-catalogue.ts")],
    join(build, "catalogue.json"),
  ],
  { cwd: repo },
);
const hasMypy = spawnSync(python, ["-c", "import mypy"], { stdio: "ignore" }).status === 0;
if (hasMypy) step(python, ["-m", "mypy"], { cwd: pkg });
else console.warn("mypy is not installed (Debian: python3-mypy): type check skipped");
step(
  python,
  ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=test-artifacts/pytest.xml"],
  { cwd: pkg },
);
