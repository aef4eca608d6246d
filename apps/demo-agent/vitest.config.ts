import { nodeProject, projectsConfig } from "../../vitest.shared.ts";

// Unit tests beside the code; end-to-end tests (real CLI processes, a real hook server and
// SDK client) as their own project with room for process start-up. The programs they start
// are bundled from source once per run (test/bundle-programs.ts), not transpiled per process.
const e2e = nodeProject({
  name: "demo-agent (e2e)",
  include: ["test/**/*.test.ts"],
  testTimeout: 60_000,
});

export default projectsConfig([
  nodeProject({ name: "demo-agent", include: ["src/**/*.test.ts"] }),
  { ...e2e, test: { ...e2e.test, globalSetup: ["test/bundle-programs.ts"] } },
]);
