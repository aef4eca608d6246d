import type { ViteUserConfig } from "vitest/config";
import { packageConfig } from "../vitest.shared.ts";

const config = packageConfig({ name: "bench", testTimeout: 20_000 });

// The programs the suites start in processes of their own are bundled from source once per run
// (test-programs.ts) and found through A3S_BENCH_DIST (test-setup.ts), as a benchmark run finds
// run.mjs's bundles.
const withPrograms: ViteUserConfig = {
  ...config,
  test: {
    ...config.test,
    globalSetup: ["test-programs.ts"],
    setupFiles: ["test-setup.ts"],
  },
};

export default withPrograms;
