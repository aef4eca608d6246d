#!/usr/bin/env node
// Checks every published package the way a user meets it: publint and
// @arethetypeswrong/cli on the packed tarball, then a plain-npm install of all tarballs into an
// empty project that imports (ESM), requires (CJS) and typechecks them.
// Expects `turbo run build` to have run. Exits non-zero when any check fails, after every
// check already started has ended.
//
// The checks are independent of each other, and most of their time is process start-up, npm's
// network round trips and tsc: they run side by side (as many CPU-bound ones at a time as the
// machine has cores), and the install starts as soon as the tarballs exist, beside publint and
// attw.
import { execFile } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
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
      // npm's tarball name: the scope's @ dropped, its / a dash.
      tarball: `${manifest.name.replace("@", "").replace("/", "-")}-${manifest.version}.tgz`,
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

/** At most `limit` of the tasks run at a time. */
function limiter(limit) {
  let active = 0;
  const waiting = [];
  const next = () => {
    if (active >= limit || waiting.length === 0) return;
    active++;
    const { task, resolve, reject } = waiting.shift();
    task()
      .then(resolve, reject)
      .finally(() => {
        active--;
        next();
      });
  };
  return (task) =>
    new Promise((resolve, reject) => {
      waiting.push({ task, resolve, reject });
      next();
    });
}
const cpuBound = limiter(availableParallelism());

/** Runs a command; its stdout, or a CheckFailed after printing the command and its output. */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        try {
          fail(`\n✖ ${cmd} ${args.join(" ")}\n${stdout ?? ""}${stderr ?? ""}\n`);
        } catch (failed) {
          reject(failed);
        }
      },
    );
    // Nothing reads from the terminal.
    child.stdin?.end();
  });
}

/**
 * Waits for every check (none is left running when the work folder is removed), then throws
 * the first failure.
 */
async function all(checks) {
  const results = await Promise.allSettled(checks);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => r.value);
}

const work = mkdtempSync(join(tmpdir(), "a3s-pack-"));
try {
  const tarballs = Object.fromEntries(packages.map((pkg) => [pkg.name, join(work, pkg.tarball)]));
  await all(
    packages.map((pkg) =>
      cpuBound(() => run("pnpm", ["pack", "--pack-destination", work], { cwd: pkg.path })),
    ),
  );

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
  // Mostly network round trips: it runs beside the tarball checks, outside their limit.
  const install = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=optional"];
  const installed = run("npm", [...install, "--loglevel=error"], { cwd: app });

  const tarballChecks = packages.map(async (pkg) => {
    const tarball = tarballs[pkg.name];
    await cpuBound(() => run(bin("publint"), ["run", "--strict", tarball], { cwd: pkg.path }));
    await cpuBound(() => run(bin("attw"), [tarball, "--format", "table-flipped", "--no-color"]));
    const entries = (await run("tar", ["-tzf", tarball])).trim().split("\n");
    // No source maps (they were most of each tarball) and nothing from the tests.
    const stray = entries.filter((e) => /\.map$|\.test(-d)?\.[cm]?[jt]s$|test-artifacts\//.test(e));
    if (stray.length > 0) {
      fail(`\n✖ ${pkg.name}: the tarball ships ${stray.join(", ")}\n`);
    }
    const size = statSync(tarball).size;
    return `✓ ${pkg.name}: publint, attw, ${entries.length} files, ${(size / 1024).toFixed(0)} KB packed`;
  });
  // Printed in the packages' order, whichever finished first.
  const [lines] = await all([all(tarballChecks), installed]);
  for (const line of lines) console.log(line);

  await all(
    packages.flatMap(({ name }) => [
      cpuBound(() =>
        run(
          "node",
          [
            "--input-type=module",
            "-e",
            `const m = await import(${JSON.stringify(name)}); if (!Object.keys(m).length) throw new Error("no exports");`,
          ],
          { cwd: app },
        ),
      ),
      cpuBound(() =>
        run(
          "node",
          [
            "-e",
            `const m = require(${JSON.stringify(name)}); if (!Object.keys(m).length) throw new Error("no exports");`,
          ],
          { cwd: app },
        ),
      ),
    ]),
  );
  console.log("✓ import (ESM) and require (CJS) of every package");

  // Each command as npm links it from the tarball: the launcher finds the built CLI, which
  // prints its usage.
  await all(
    packages
      .flatMap((pkg) => pkg.bins)
      .map((name) =>
        cpuBound(
          () =>
            new Promise((resolve, reject) => {
              execFile(
                join(app, "node_modules", ".bin", name),
                ["--help"],
                { cwd: app, encoding: "utf8" },
                (error, stdout, stderr) => {
                  const status = error ? (error.code ?? 1) : 0;
                  if (status === 0 && /usage:/i.test(`${stdout}${stderr}`)) return resolve();
                  try {
                    fail(`\n✖ ${name} --help (exit ${status})\n${stdout}${stderr}\n`);
                  } catch (failed) {
                    reject(failed);
                  }
                },
              );
            }),
        ),
      ),
  );
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
  await all(
    consumers.map(async ([file, lib, types]) => {
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
      await cpuBound(() => run(bin("tsc"), ["-p", join(app, project)]));
      await cpuBound(() => run(bin("tsx"), [join(app, file)], { cwd: app }));
    }),
  );
  console.log("✓ a consumer typechecks and runs against the installed tarballs");
} catch (error) {
  if (!(error instanceof CheckFailed)) throw error;
  process.exitCode = 1;
} finally {
  // Also after a failure: process.exit() here would skip it and leave the tarballs behind.
  rmSync(work, { recursive: true, force: true });
}
