import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPrograms } from "../../test-support/program-bundles.ts";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
const child = (name: string) => path.join(BENCH_DIR, "src", "children", `${name}.ts`);

/**
 * The programs the suites start in processes of their own, by the names `pnpm bench` (run.mjs)
 * gives their bundles: the children in src/children/ and the MCP proxy's bin.
 */
export const PROGRAMS = {
  "memory-churn": child("memory-churn"),
  "grpc-echo-client": child("grpc-echo-client"),
  "ws-echo-client": child("ws-echo-client"),
  "hook-client": child("hook-client"),
  "a3s-hooks-mcp": path.resolve(BENCH_DIR, "../packages/mcp/src/bin.ts"),
};

/**
 * Vitest global setup: the programs, bundled from source once per run, into one folder that
 * test-setup.ts names in A3S_BENCH_DIST, as run.mjs does for a benchmark run. zod is bundled
 * as run.mjs bundles it.
 */
export default bundledPrograms(BENCH_DIR, PROGRAMS, { inline: ["zod"] });
