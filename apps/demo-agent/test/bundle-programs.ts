import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { bundleNodePrograms } from "../../../test-support/node-bundle.ts";

const APP_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The programs the end-to-end tests start, bundled once per run (see cli-process.ts). */
export const PROGRAMS = {
  /** The demo CLI, `src/cli.ts`. */
  demo: path.join(APP_DIR, "src", "cli.ts"),
  /** hooks-node's `a3s-hooks` CLI. */
  "a3s-hooks": path.resolve(APP_DIR, "../../packages/node/src/cli/main.ts"),
  /** The SDK client the `serve` tests connect with. */
  "sdk-client": path.join(APP_DIR, "test", "fixtures", "sdk-client.ts"),
};

export type ProgramName = keyof typeof PROGRAMS;

declare module "vitest" {
  export interface ProvidedContext {
    /** Each program's bundle, by name. */
    programs: Record<ProgramName, string>;
  }
}

/**
 * Vitest global setup: bundle the programs from source once, into the app's `node_modules`
 * (so what they import at run time resolves as the app's own imports do), and remove them at
 * the end of the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outdir = await mkdtemp(path.join(APP_DIR, "node_modules", ".a3s-test-programs-"));
  project.provide("programs", await bundleNodePrograms(PROGRAMS, outdir, { inline: ["zod"] }));
  return () => rm(outdir, { recursive: true, force: true });
}
