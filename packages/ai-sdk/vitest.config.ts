import { packageConfig } from "../../vitest.shared.ts";

export default packageConfig({
  name: "ai-sdk",
  // The end-to-end tests fork box's fixture processes (its test/fixtures/processes.ts), which
  // box's global setup bundles once per run.
  globalSetup: ["../client/test/programs.ts"],
});
