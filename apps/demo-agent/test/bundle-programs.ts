import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../../test-support/program-bundles.ts";

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

/** Vitest global setup: the programs, bundled from source once per run. */
export default bundledPrograms(APP_DIR, PROGRAMS, { inline: ["zod"] });
