import type { ViteUserConfig } from "vitest/config";
import { projectsConfig, sharedModulesProjects } from "../../vitest.shared.ts";

const config = projectsConfig(
  sharedModulesProjects({
    name: "node",
    // Files that change what other files would see, run isolated: those that add events to
    // hooks-core's process-wide catalogue (with defineEvent, or by running the CLI in-process,
    // whose first command adds Claude Code's events; other files assert an event is unknown),
    // that mock a module (vi.mock), or that set the global tracer provider. Named by file name:
    // they may move folders.
    ownModules: [
      // defineEvent
      "**/hook-input.test.ts",
      "**/interpret-result.test.ts",
      "**/parse-hooks-block.test.ts",
      "**/watch-hook-settings.test.ts",
      // the CLI in-process (cli/cli-runtime.ts)
      "**/claude-code-events-cli.test.ts",
      "**/claude-code-input.test.ts",
      "**/claude-code-settings.test.ts",
      "**/convert-command.test.ts",
      "**/format-order.test.ts",
      "**/formats-cli.test.ts",
      "**/hook-switches.test.ts",
      "**/hook-types-cli.test.ts",
      "**/list-command.test.ts",
      "**/mcp-proxy-command.test.ts",
      "**/open-plugins.test.ts",
      "**/plugins.test.ts",
      "**/prompt-hook-cli.test.ts",
      "**/run-cli.test.ts",
      "**/trust-command.test.ts",
      // vi.mock, the global tracer provider
      "**/load-hook-settings.test.ts",
      "**/walk-files.test.ts",
      "**/instrument-hooks.test.ts",
    ],
  }),
);

// The programs the tests start as processes (the CLI, fixture processes) are bundled from source
// once per run (test/programs.ts), not by each test file nor by tsx on each start. The root
// project's global setup runs once, and what it provides reaches both projects.
const withPrograms: ViteUserConfig = {
  ...config,
  test: { ...config.test, globalSetup: ["test/programs.ts"] },
};
export default withPrograms;
