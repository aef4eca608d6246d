import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { bundleNodePrograms } from "./node-bundle.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Each program's bundle (see {@link bundledPrograms}), by name. */
    programs: Record<string, string>;
  }
}

/**
 * A vitest global setup that bundles a package's test programs (TypeScript entry files: a CLI,
 * a fixture process) once per run, into the package's `node_modules` (so what they import at run
 * time resolves as the package's own imports do), and removes them at the end of the run. A
 * test then starts `node <programFile(name)>`: plain node, without tsx transpiling the program
 * and every package it imports on each start (a second or two of CPU per process).
 *
 * In a package's `test/programs.ts`, `export default bundledPrograms(import.meta.dirname, {…})`,
 * named in its vitest config's `globalSetup`.
 */
export function bundledPrograms(
  packageDir: string,
  programs: Record<string, string>,
  options: { inline?: readonly string[] } = {},
): (project: TestProject) => Promise<() => Promise<void>> {
  return async (project) => {
    await mkdir(path.join(packageDir, "node_modules"), { recursive: true });
    const outdir = await mkdtemp(path.join(packageDir, "node_modules", ".a3s-test-programs-"));
    project.provide("programs", await bundleNodePrograms(programs, outdir, options));
    return () => rm(outdir, { recursive: true, force: true });
  };
}

/**
 * The node arguments that run one program of the running package's {@link bundledPrograms}
 * setup: `spawn(process.execPath, programArgs(name, args))`. The source condition is for what
 * the program imports at run time from the workspace (a sibling package it loads on demand).
 *
 * `--liftoff-only` keeps V8's optimizing compiler away from WebAssembly: a test's process lives
 * a second or two, and for the embedded store's Postgres (PGlite, a large WebAssembly module)
 * that compiler spent more CPU than it saved, about 0.5 s of each process's 1.4 s. It changes
 * how fast the WebAssembly runs, not what it does; JavaScript is compiled as always.
 */
export function programArgs(name: string, args: readonly string[] = []): string[] {
  return ["--liftoff-only", "--conditions=@a3s-lab/source", programFile(name), ...args];
}

/** The bundle of one program of the running package's {@link bundledPrograms} setup. */
export function programFile(name: string): string {
  const file = inject("programs")?.[name];
  if (file === undefined) {
    throw new Error(
      `no bundled program "${name}": is it in the package's bundledPrograms global setup?`,
    );
  }
  return file;
}
