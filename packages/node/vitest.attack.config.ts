import type { ViteUserConfig } from "vitest/config";
import { attackConfig } from "../../vitest.shared.ts";

// Two files at a time: the test command runs this suite beside the demo's, which ends in half
// the time; one file at a time then left a core idle for the rest. Each attack measures the
// server process it starts (its memory, its answers), not the time it takes.
const config = attackConfig({ name: "node", maxWorkers: 2 });

// The hook server the attacks start in a process of its own is bundled once per run
// (test/programs.ts), not transpiled by tsx on each start.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};
export default withPrograms;
