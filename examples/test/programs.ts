import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../test-support/program-bundles.ts";

const EXAMPLES_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The programs the examples' tests start (see demo-agent.ts). */
export const PROGRAMS = {
  /** The demo agent's CLI (apps/demo-agent), what `a3s-demo-agent` runs. */
  "a3s-demo-agent": path.resolve(EXAMPLES_DIR, "../apps/demo-agent/src/cli.ts"),
};

/** Vitest global setup: the demo agent's CLI, bundled from source once per run. */
export default bundledPrograms(EXAMPLES_DIR, PROGRAMS, { inline: ["zod"] });
