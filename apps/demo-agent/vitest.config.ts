import { projectsConfig, sharedModulesProjects } from "../../vitest.shared.ts";

// Unit tests beside the code; end-to-end tests (real CLI processes, a real hook server and
// SDK client) as their own project with room for process start-up. The programs they start
// are bundled from source once per run (test/bundle-programs.ts), not transpiled per process.
// Files share one module graph per worker; the one that mocks a module runs isolated.
const unit = sharedModulesProjects({
  name: "demo-agent",
  include: ["src/**/*.test.ts"],
  ownModules: ["src/tools/search-cancel.test.ts"],
});
// No e2e file changes what another would see: only the shared project.
const [e2e] = sharedModulesProjects({
  name: "demo-agent (e2e)",
  include: ["test/**/*.test.ts"],
  testTimeout: 60_000,
  ownModules: [],
});

export default projectsConfig([
  ...unit,
  { ...e2e!, test: { ...e2e!.test, globalSetup: ["test/bundle-programs.ts"] } },
]);
