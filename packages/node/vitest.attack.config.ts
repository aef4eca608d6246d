import type { ViteUserConfig } from "vitest/config";
import { attackConfig } from "../../vitest.shared.ts";

const config = attackConfig({ name: "node" });

// The hook server the attacks start in a process of its own is bundled once per run
// (test/programs.ts), not transpiled by tsx on each start.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};
export default withPrograms;
