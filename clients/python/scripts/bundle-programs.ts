// The TypeScript programs the Python tests start (the demo agent, the hosts and hooks they talk
// to, the catalogue export), bundled once per test run with plain `node` to run them: a tsx start
// transpiles the program and every package it imports again, 2-3 s of CPU each, and the tests
// start the demo agent about ten times. Writes `{ "<source file>": "<bundle>" }` to the file
// named by the first argument; the bundles go in a fresh folder of this package's node_modules,
// so what they import at run time resolves as the package's own imports do.
import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { bundleNodePrograms } from "../../../test-support/node-bundle.ts";

const pkg = path.resolve(import.meta.dirname, "..");
const repo = path.resolve(pkg, "..", "..");
const [out] = process.argv.slice(2);
if (out === undefined) throw new Error("usage: bundle-programs.ts <map.json>");

const sources = [
  path.join(repo, "apps", "demo-agent", "src", "cli.ts"),
  path.join(pkg, "scripts", "export-catalogue.ts"),
  path.join(pkg, "tests", "ts", "deep-host.ts"),
  path.join(pkg, "tests", "ts", "ts-hook.ts"),
];
const outdir = await mkdtemp(path.join(pkg, "node_modules", ".a3s-test-programs-"));
const names = Object.fromEntries(sources.map((file, i) => [`p${i}`, file]));
const bundles = await bundleNodePrograms(names, outdir, { inline: ["zod"] });
const map = Object.fromEntries(sources.map((file, i) => [file, bundles[`p${i}`]]));
await writeFile(out, `${JSON.stringify({ outdir, programs: map }, null, 2)}\n`);
