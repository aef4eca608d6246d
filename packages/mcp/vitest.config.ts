import type { ViteUserConfig } from "vitest/config";
import { packageConfig } from "../../vitest.shared.ts";

const config = packageConfig({ name: "mcp" });

// The stdio tests start the proxy's bin as an MCP client does: it is bundled from source once
// per run (test/programs.ts), not transpiled by tsx in every process.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};

export default withPrograms;
