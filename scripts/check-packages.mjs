#!/usr/bin/env node
// Checks every published package the way a user meets it: publint and
// @arethetypeswrong/cli on the packed tarball, then a plain-npm install of all tarballs into an
// empty project that imports (ESM), requires (CJS) and typechecks them.
// Expects `turbo run build` to have run. Exits non-zero on the first failure.
import { execFileSync, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
// Every published package: each folder of packages/ whose package.json is not private.
const packages = readdirSync(join(root, "packages"))
  .sort()
  .map((dir) => {
    const path = join(root, "packages", dir);
    const manifest = JSON.parse(readFileSync(join(path, "package.json"), "utf8"));
    return {
      dir,
      path,
      name: manifest.name,
      bins: Object.keys(manifest.bin ?? {}),
      private: manifest.private === true,
    };
  })
  .filter((pkg) => !pkg.private);

/** A failed check, already explained on stderr: the run stops, cleans up, and exits 1. */
class CheckFailed extends Error {}

function fail(report) {
  process.stderr.write(report);
  throw new CheckFailed();
}

function run(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, {
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      ...options,
    });
  } catch (error) {
    fail(`\n✖ ${cmd} ${args.join(" ")}\n${error.stdout ?? ""}${error.stderr ?? ""}\n`);
  }
}

const work = mkdtempSync(join(tmpdir(), "a3s-pack-"));
try {
  const tarballs = {};
  for (const pkg of packages) {
    run("pnpm", ["pack", "--pack-destination", work], { cwd: pkg.path });
    const file = readdirSync(work).find(
      (f) => f.startsWith(pkg.name.replace("@", "").replace("/", "-")) && f.endsWith(".tgz"),
    );
    tarballs[pkg.name] = join(work, file);
    run(bin("publint"), ["run", "--strict", tarballs[pkg.name]], { cwd: pkg.path });
    run(bin("attw"), [tarballs[pkg.name], "--format", "table-flipped", "--no-color"]);
    const entries = run("tar", ["-tzf", tarballs[pkg.name]]).trim().split("\n");
    // No source maps (they were most of each tarball) and nothing from the tests.
    const stray = entries.filter((e) => /\.map$|\.test(-d)?\.[cm]?[jt]s$|test-artifacts\//.test(e));
    if (stray.length > 0) {
      fail(`\n✖ ${pkg.name}: the tarball ships ${stray.join(", ")}\n`);
    }
    const size = statSync(tarballs[pkg.name]).size;
    console.log(
      `✓ ${pkg.name}: publint, attw, ${entries.length} files, ${(size / 1024).toFixed(0)} KB packed`,
    );
  }

  const app = join(work, "consumer");
  mkdirSync(app);
  const deps = {
    ...Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`])),
    // The AI SDK's declarations import json-schema's types without depending on them; the
    // consumer checks every library's types (skipLibCheck off), so it brings them, as a user
    // with that setting would.
    "@types/json-schema": "^7.0.15",
    // A Node project's own types, at the oldest Node the packages support.
    "@types/node": "^20.19.0",
  };
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      { name: "consumer", private: true, type: "module", dependencies: deps },
      null,
      2,
    ),
  );
  // --omit=optional: the adapters' peer frameworks are installed as a user's npm would, but not
  // the Claude Agent SDK's CLI binaries (optional, hundreds of MB), which nothing here runs.
  const install = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=optional"];
  run("npm", [...install, "--loglevel=error"], {
    cwd: app,
  });

  for (const { name } of packages) {
    run(
      "node",
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(name)}); if (!Object.keys(m).length) throw new Error("no exports");`,
      ],
      { cwd: app },
    );
    run(
      "node",
      [
        "-e",
        `const m = require(${JSON.stringify(name)}); if (!Object.keys(m).length) throw new Error("no exports");`,
      ],
      { cwd: app },
    );
  }
  console.log("✓ import (ESM) and require (CJS) of every package");

  // Each command as npm links it from the tarball: the launcher finds the built CLI, which
  // prints its usage.
  for (const name of packages.flatMap((pkg) => pkg.bins)) {
    const help = spawnSync(join(app, "node_modules", ".bin", name), ["--help"], {
      cwd: app,
      encoding: "utf8",
    });
    if (help.status !== 0 || !/usage:/i.test(`${help.stdout}${help.stderr}`)) {
      fail(`\n✖ ${name} --help (exit ${help.status})\n${help.stdout}${help.stderr}\n`);
    }
  }
  console.log(
    `✓ the commands run from the tarballs: ${packages.flatMap((p) => p.bins).join(", ")}`,
  );

  // Consumers written the way the READMEs say, typechecked against the installed tarballs with
  // every library's declarations checked (skipLibCheck off) and a lib older than esnext (no
  // Disposable or Symbol.dispose of its own): a Node project on exactly lib es2022 with
  // @types/node (core, node, box), and projects with DOM and no Node types, where only our
  // declarations can bring Disposable (the adapters' frameworks need DOM's fetch types).
  const consumers = [
    ["consumer-node.ts", ["es2022"], ["node"]],
    ["consumer.ts", ["es2022", "DOM"], []],
    ["consumer-web.ts", ["es2022", "DOM"], []],
  ];
  for (const [file, lib, types] of consumers) {
    writeFileSync(join(app, file), readFileSync(join(root, "scripts", `${file}.txt`), "utf8"));
    const project = `tsconfig.${file.replace(/\.ts$/, "")}.json`;
    writeFileSync(
      join(app, project),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          lib,
          noEmit: true,
          skipLibCheck: false,
          types,
        },
        files: [file],
      }),
    );
    run(bin("tsc"), ["-p", join(app, project)]);
    run(bin("tsx"), [join(app, file)], { cwd: app });
  }
  console.log("✓ a consumer typechecks and runs against the installed tarballs");
} catch (error) {
  if (!(error instanceof CheckFailed)) throw error;
  process.exitCode = 1;
} finally {
  // Also after a failure: process.exit() here would skip it and leave the tarballs behind.
  rmSync(work, { recursive: true, force: true });
}
