#!/usr/bin/env node
// The test suite drives real programs: Debian's chromium (browser tests, through
// playwright-core; never a downloaded browser), and Debian's Python for the Python SDK
// (clients/python: grpcio, grpc-tools, pytest, mypy, setuptools), run with /usr/bin/python3, and
// Debian's PostgreSQL server programs for the approval stores' PostgreSQL suite (each test file
// starts its own throwaway server with initdb + pg_ctl; the service itself is never enabled). Install them when missing and we may (root
// with apt-get); otherwise say
// exactly what to install. Never downloads anything but Debian packages.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const needs = [
  { pkg: "chromium", present: () => existsSync("/usr/bin/chromium") },
  {
    pkg: "postgresql",
    present: () =>
      ["17", "16", "15", "14", "13"].some((major) =>
        existsSync(`/usr/lib/postgresql/${major}/bin/pg_ctl`),
      ),
  },
  {
    pkg: "python3-grpc-tools",
    extra: ["python3-grpcio", "python3-pytest", "python3-mypy", "python3-setuptools"],
    // Debian's own interpreter: a python3 earlier on PATH (pyenv, venv) cannot see its modules.
    present: () =>
      spawnSync(
        "/usr/bin/python3",
        ["-c", "import grpc_tools.protoc, grpc, pytest, mypy, setuptools"],
        { stdio: "ignore" },
      ).status === 0,
  },
];

const missing = needs.filter((n) => !n.present());
if (missing.length === 0) process.exit(0);
const pkgs = missing.flatMap((n) => [n.pkg, ...(n.extra ?? [])]);
const canInstall =
  process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
if (!canInstall) {
  console.error(
    `The tests need these Debian packages: ${pkgs.join(" ")}\nInstall them with: sudo apt-get install -y ${pkgs.join(" ")}`,
  );
  process.exit(1);
}
console.log(`Installing Debian packages for the tests: ${pkgs.join(" ")}`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...pkgs], {
  stdio: "inherit",
  env,
});
const still = missing.filter((n) => !n.present());
if (still.length > 0) {
  console.error(`Still missing after install: ${still.map((n) => n.pkg).join(" ")}`);
  process.exit(1);
}
