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
//
// A command marked `nice` runs at low priority: it takes only the CPU the phase's first command
// leaves idle. The unit tests wait on the processes, servers and browsers they start for much of
// their time; the package and API-docs checks fill those gaps instead of a phase of their own,
// and the tests' own timing is barely touched. (Every benchmark suite runs in the bench
// package's tests, on a tiny profile; `pnpm bench --smoke` would run them all again.)
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** Below every test process (niceness 0), so the checks only take what the tests leave. */
const nice = (command) => `nice -n 15 ${command}`;

/** [name, commands]: commands of one phase run side by side; phases run one after another. */
const phases = [
  // First: it may install the Debian packages the tests need.
  ["system packages", ["node scripts/ensure-system-deps.mjs"]],
  [
    "typecheck, build, lint, install check",
    ["turbo run typecheck build", "biome check .", "node scripts/check-install.mjs"],
  ],
  // The checks need the build and nothing the tests change. Two packages' unit tests at a time:
  // a package's last, longest files leave a core idle that the next package fills.
  [
    "unit tests; packages, API docs",
    [
      "turbo run test --concurrency=2",
      nice("node scripts/check-packages.mjs"),
      nice("node scripts/docs-api.mjs --check"),
    ],
  ],
  // Two packages' attack suites side by side: each runs its files one at a time (they load real
  // servers on purpose), so one suite alone leaves a core idle.
  ["attack tests", ["turbo run test:attack --concurrency=2"]],
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
