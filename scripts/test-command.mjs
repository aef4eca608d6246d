#!/usr/bin/env node
// `pnpm test`: every check of the repository, in phases, and each phase's time at the end
// (before the count of tests and the command's whole time, which summarize-tests.mjs prints).
//
// A phase is one command or several independent ones run side by side: on 2 cores a CPU-bound
// step overlaps well with one that mostly waits (a copy of the repository, an npm install, a
// process start), and every step still runs. The first failing phase ends the command with its
// exit code, after the other commands of that phase have ended, so their output is not cut.
// Side by side, the first command's output streams as it comes; the others' is printed when they
// end, each in one piece.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** [name, commands]: commands of one phase run side by side; phases run one after another. */
const phases = [
  // First: it may install the Debian packages the tests need.
  ["system packages", ["node scripts/ensure-system-deps.mjs"]],
  [
    "typecheck, build, lint, install check",
    ["turbo run typecheck build", "biome check .", "node scripts/check-install.mjs"],
  ],
  ["unit tests", ["turbo run test --concurrency=1"]],
  ["attack tests", ["turbo run test:attack --concurrency=1"]],
  // The smoke run of the bench judges no timing, so sharing the cores does not matter to it.
  [
    "packages, API docs, bench smoke",
    ["node scripts/check-packages.mjs", "node scripts/docs-api.mjs --check", "pnpm bench --smoke"],
  ],
];

/** Runs a shell command from the repository root; resolves to its exit code. */
function run(command, live) {
  return new Promise((done) => {
    const child = spawn(command, {
      cwd: root,
      shell: true,
      stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) => {
      if (!live) {
        process.stdout.write(`\n> ${command}\n`);
        process.stdout.write(Buffer.concat(output));
      }
      done(code ?? (signal ? 1 : 0));
    });
  });
}

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
};
const times = [];
let status = 0;
for (const [name, commands] of phases) {
  const start = performance.now();
  const codes = await Promise.all(commands.map((command, i) => run(command, i === 0)));
  times.push([name, performance.now() - start]);
  status = codes.find((code) => code !== 0) ?? 0;
  if (status !== 0) {
    const failed = commands.filter((_, i) => codes[i] !== 0);
    console.error(`\n✖ ${name}: ${failed.join(", ")} failed`);
    break;
  }
}
console.log("\nPhases:");
for (const [name, ms] of times) console.log(`  ${name.padEnd(40)} ${seconds(ms)}`);
if (status !== 0) process.exit(status);
process.exitCode = await run("node scripts/summarize-tests.mjs", true);
// From this process's start, which is the command's (pnpm starts it first): typecheck, build,
// every test, the checks and the bench.
console.log(`Test command took ${seconds(performance.now())}`);
