import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../../test-support/program-bundles.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The programs the stdio tests start (see proxy-process.ts). */
export const PROGRAMS = {
  /** The `a3s-hooks-mcp` bin, from source. */
  "a3s-hooks-mcp": path.join(PACKAGE_DIR, "src", "bin.ts"),
};

/** Vitest global setup: the proxy's bin, bundled from source once per run. */
export default bundledPrograms(PACKAGE_DIR, PROGRAMS, { inline: ["zod"] });
