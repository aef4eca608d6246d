#!/usr/bin/env node
// A first install must be quiet: copies the repository as a fresh clone has it (tracked and
// new files, nothing ignored, so no dist/ and no node_modules/), runs `pnpm install --offline`
// there against the store the repository's own install filled, and fails on any warning, on a
// bin that could not be linked, or on a dependency's build script left for the user to decide.
// Exits non-zero, printing the offending lines.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const NOISE = /WARN|Failed to create bin|Ignored build scripts/;

// `pnpm test` puts its pnpm on the PATH; run directly, this takes the README's.
const pnpm = spawnSync("pnpm", ["--version"]).error ? ["npx", "-y", "pnpm@10"] : ["pnpm"];

// The settings a parent pnpm hands its scripts (npm_config_*, npm_package_*, …) would make
// this install differ from a user's.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/.test(key)),
);

function pnpmSync(args, cwd) {
  return spawnSync(pnpm[0], [...pnpm.slice(1), ...args], { cwd, env, encoding: "utf8" });
}

const store = pnpmSync(["store", "path"], root).stdout.trim();
const work = mkdtempSync(join(tmpdir(), "a3s-install-"));
try {
  const files = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: root, encoding: "utf8" },
  )
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(root, file)));
  for (const file of files) cpSync(join(root, file), join(work, file));

  const install = pnpmSync(
    ["install", "--offline", "--frozen-lockfile", ...(store ? ["--store-dir", store] : [])],
    work,
  );
  const output = `${install.stdout}\n${install.stderr}`;
  const noise = output.split("\n").filter((line) => NOISE.test(line));
  if (install.status !== 0 || noise.length > 0) {
    process.stderr.write(
      install.status !== 0
        ? `\n✖ pnpm install --offline failed (exit ${install.status}) in a copy of the repository:\n${output}\n`
        : `\n✖ pnpm install in a copy of the repository is not quiet:\n${noise.join("\n")}\n`,
    );
    // Not process.exit: the copy is removed below first.
    process.exitCode = 1;
  } else {
    console.log(`✓ pnpm install of a fresh copy (${files.length} files) prints no warnings`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
