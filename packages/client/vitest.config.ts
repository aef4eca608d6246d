import type { TestProjectInlineConfiguration } from "vitest/config";
import { projectsConfig, sharedModulesProjects } from "../../vitest.shared.ts";

// The integration tests fork fixture processes (host and clients): they are bundled from
// source once per run (test/programs.ts), not transpiled by tsx in every process.
const withPrograms = (project: TestProjectInlineConfiguration) => ({
  ...project,
  test: { ...project.test, globalSetup: ["test/programs.ts"] },
});

export default projectsConfig(
  sharedModulesProjects({
    name: "client",
    ownModules: [
      // Defines events in hooks-core's process-wide event catalogue, which other files read.
      "**/defined-event.test.ts",
      // Stubs fetch for the whole file (the design's hook posts to it), not per test.
      "**/typescript-sdk.test.ts",
    ],
  }).map(withPrograms),
);
