import { projectsConfig, sharedModulesProjects } from "../../vitest.shared.ts";

const [shared, isolated] = sharedModulesProjects({
  name: "mcp",
  // Puts the package's node_modules/.bin on the process's PATH, as a user's shell has it.
  ownModules: ["test/readme.test.ts"],
});

// The stdio tests start the proxy's bin as an MCP client does: it is bundled from source once
// per run (test/programs.ts), not transpiled by tsx in every process.
export default projectsConfig([
  { ...shared!, test: { ...shared!.test, globalSetup: ["test/programs.ts"] } },
  isolated!,
]);
