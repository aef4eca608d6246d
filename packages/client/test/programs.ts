import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../../test-support/program-bundles.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The fixture processes the integration tests fork (see fixtures/processes.ts). */
export const PROGRAMS = {
  /** A stand-in agent host: a HookEngine and the hook server. */
  "test-host": path.join(PACKAGE_DIR, "test", "fixtures", "test-host.ts"),
  /** A real A3sClient whose hooks are described as data. */
  "test-client": path.join(PACKAGE_DIR, "test", "fixtures", "test-client.ts"),
};

export type ProgramName = keyof typeof PROGRAMS;

/** Vitest global setup: the fixtures, bundled from source once per run. */
export default bundledPrograms(PACKAGE_DIR, PROGRAMS, { inline: ["zod"] });
