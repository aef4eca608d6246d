import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../../test-support/program-bundles.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/**
 * The programs hooks-node's tests start as processes of their own, bundled once per run (run
 * each with `node ...programArgs(name)`), instead of once per test
 * file or transpiled by tsx on every start.
 */
export const PROGRAMS = {
  /** The `a3s-hooks` CLI, `src/cli/main.ts`. */
  "a3s-hooks": path.join(PACKAGE_DIR, "src", "cli", "main.ts"),
  /** An agent that waits on one approval, then claims its resume (approval-processes.test.ts). */
  "approvals-agent": path.join(PACKAGE_DIR, "test", "fixtures", "approvals", "agent.ts"),
  /** Fires a command hook with no file descriptors left (command-hook.test.ts). */
  "fire-without-descriptors": path.join(
    PACKAGE_DIR,
    "test",
    "command",
    "fire-without-descriptors.ts",
  ),
  /** A hook server in a process of its own (the attack suite's hook-server-child.ts). */
  "hook-server-process": path.join(PACKAGE_DIR, "test", "attack", "hook-server-process.ts"),
};

/** Vitest global setup: the programs, bundled from source once per run. */
export default bundledPrograms(PACKAGE_DIR, PROGRAMS, { inline: ["zod"] });
