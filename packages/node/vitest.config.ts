import type { ViteUserConfig } from "vitest/config";
import { packageConfig } from "../../vitest.shared.ts";

const config = packageConfig({ name: "node" });

// The programs the tests start as processes (the CLI, fixture processes) are bundled from source
// once per run (test/programs.ts), not by each test file nor by tsx on each start.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};
export default withPrograms;
