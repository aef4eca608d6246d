import path from "node:path";
import { programFile } from "../../test-support/program-bundles.ts";

// The suites start their child processes and the MCP proxy from A3S_BENCH_DIST when it is set,
// as in `pnpm bench`: here, the bundles test-programs.ts made for this run, so no process start
// pays for tsx transpiling its program.
process.env.A3S_BENCH_DIST = path.dirname(programFile("memory-churn"));
