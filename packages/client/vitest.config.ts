import type { ViteUserConfig } from "vitest/config";
import { packageConfig } from "../../vitest.shared.ts";

const config = packageConfig({ name: "client" });

// The integration tests fork fixture processes (host and clients): they are bundled from
// source once per run (test/programs.ts), not transpiled by tsx in every process.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};

export default withPrograms;
