import { projectsConfig, sharedModulesProjects } from "../vitest.shared.ts";

const [shared, isolated] = sharedModulesProjects({
  name: "bench",
  testTimeout: 20_000,
  // Counts the bytes a call allocates on the process's heap: nothing another file left running
  // (a socket closing, a timer) may allocate in its loops.
  ownModules: ["**/alloc.test.ts"],
});

// The programs the suites start in processes of their own are bundled from source once per run
// (src/test-programs.ts) and found through A3S_BENCH_DIST (src/test-setup.ts), as a benchmark run finds
// run.mjs's bundles.
export default projectsConfig([
  {
    ...shared!,
    test: {
      ...shared!.test,
      globalSetup: ["src/test-programs.ts"],
      setupFiles: ["src/test-setup.ts"],
    },
  },
  isolated!,
]);
