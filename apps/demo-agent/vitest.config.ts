import { nodeProject, projectsConfig } from "../../vitest.shared.ts";

// Unit tests beside the code; end-to-end tests (real CLI processes, a real hook server and
// SDK client) as their own project with room for process start-up.
export default projectsConfig([
  nodeProject({ name: "demo-agent", include: ["src/**/*.test.ts"] }),
  nodeProject({
    name: "demo-agent (e2e)",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
  }),
]);
