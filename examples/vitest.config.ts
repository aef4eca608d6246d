import type { ViteUserConfig } from "vitest/config";
import { packageConfig } from "../vitest.shared.ts";

// The examples run against the demo agent in another process: allow for its start-up.
const config = packageConfig({ name: "examples", testTimeout: 30_000 });

// The demo agent's CLI is bundled from source once per run (test/programs.ts), not transpiled
// by tsx at each start. No file changes what another would see (a process-wide registry, the
// environment): they share one module graph per worker, which saves importing the packages
// once per file.
const withPrograms: ViteUserConfig = {
  ...config,
  test: {
    ...config.test,
    globalSetup: ["test/programs.ts"],
    isolate: false,
    unstubGlobals: true,
  },
};

export default withPrograms;
