import { availableParallelism } from "node:os";
import { playwright } from "@vitest/browser-playwright";
import { defaultClientConditions, defaultServerConditions } from "vite";
import {
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from "vitest/config";

// Tests start `bash -c` themselves (the shell property tests, raw spawns in the benches). bash
// runs ~/.bashrc for `bash -c` when its stdin is a socket, as Node's pipes are, and it is a
// top-level shell; turbo's strict environment drops SHLVL, which makes every such bash top-level.
// A user's rc file (pyenv init, on this kind of machine) then runs, slowly, in every test shell.
if (!(Number(process.env.SHLVL) >= 1)) process.env.SHLVL = "1";

/**
 * Shared vitest settings. Every package resolves its sibling packages through the
 * `@a3s-lab/source` export condition, so tests run against `src/` with no build step.
 */
export const sourceConditions = [
  "@a3s-lab/source",
  // Not "module": some packages' "module" builds import files without their extension, which
  // only a bundler resolves (@opentelemetry/api's, pulled in by ai); Node loads them as Node does.
  ...defaultServerConditions.filter((condition) => condition !== "module"),
];
export const browserSourceConditions = ["@a3s-lab/source", ...defaultClientConditions];

/** Debian's Chromium, driven by playwright; nothing downloads a browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
];

type Reporters = NonNullable<NonNullable<ViteUserConfig["test"]>["reporters"]>;

const reporters: Reporters = ["default", ["json", { outputFile: "test-artifacts/vitest.json" }]];

/**
 * Test files at once in a package's unit run: one per core. Vitest's own default in a run is
 * one fewer than the cores, which on two cores is one file at a time, though most files spend
 * their time waiting on the processes and servers they start. The attack suites keep the
 * default unless they say otherwise: their files load real servers on purpose.
 */
const maxWorkers = availableParallelism();

/**
 * Attack tests (`test/attack/**`): bounded, loopback-only attacks on real servers and processes,
 * too slow for the unit run. `pnpm test:attack` runs them; the test command runs that.
 */
const ATTACK_TESTS = "test/attack/**/*.test.ts";

interface ProjectOptions {
  name: string;
  include?: string[];
  testTimeout?: number;
}

interface SharedModulesOptions extends ProjectOptions {
  /**
   * The test files that change what other files would see (a process-wide registry, another
   * module's state): they run isolated, each importing the package afresh. Every other file
   * shares one module graph per worker instead, which saves importing the package once per
   * file (most of such a package's run). Globals stubbed with `vi.stubGlobal` are put back
   * after each test.
   */
  ownModules: string[];
}

/** A Node project: the package's tests and type tests, against `src/` of every package. */
export function nodeProject(options: ProjectOptions): TestProjectInlineConfiguration {
  return {
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: ["@a3s-lab/source"] } },
    test: {
      name: options.name,
      include: options.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      exclude: ["**/node_modules/**", ATTACK_TESTS],
      // Hang guards, not timing assertions: suites start real processes and servers, and CI
      // machines have two shared cores.
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 30_000,
      // The type tests (`*.test-d.ts`) are compiled by each package's `typecheck` script, which
      // checks the same files vitest's typecheck would (examples/test/type-tests.test.ts keeps it
      // so); a second whole-project `tsc` per package here cost 6-10 s of a test run.
      typecheck: { enabled: false },
      restoreMocks: true,
      unstubEnvs: true,
    },
  };
}

/**
 * A package's Node tests as two projects: the files that keep to themselves share one module
 * graph per worker; the files named in `ownModules` run isolated.
 */
export function sharedModulesProjects(
  options: SharedModulesOptions,
): TestProjectInlineConfiguration[] {
  const project = nodeProject(options);
  const test = project.test ?? {};
  return [
    {
      ...project,
      test: {
        ...test,
        isolate: false,
        unstubGlobals: true,
        exclude: [...(test.exclude ?? []), ...options.ownModules],
      },
    },
    {
      ...project,
      test: { ...test, name: `${options.name} (isolated)`, include: options.ownModules },
    },
  ];
}

/** A package tested in Node only. */
export function packageConfig(
  options: ProjectOptions & {
    /** Vitest global setups, such as another package's program bundles its tests start. */
    globalSetup?: string[];
  },
): ViteUserConfig {
  const { globalSetup, ...rest } = options;
  const project = nodeProject(rest);
  return defineConfig({
    ...project,
    test: { ...project.test, reporters, maxWorkers, ...(globalSetup ? { globalSetup } : {}) },
  });
}

/** A vitest project that runs the given tests in headless Debian Chromium. */
export function chromiumProject(
  options: ProjectOptions & { include: string[] },
): TestProjectInlineConfiguration {
  return {
    resolve: { conditions: browserSourceConditions },
    test: {
      name: options.name,
      include: options.include,
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 30_000,
      restoreMocks: true,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({
          launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
        }),
        instances: [{ browser: "chromium" }],
      },
    },
  };
}

/**
 * A package tested as several projects, reporting where `scripts/summarize-tests.mjs` (and
 * turbo's `outputs`) read every package's results.
 */
export function projectsConfig(projects: TestProjectInlineConfiguration[]): ViteUserConfig {
  return defineConfig({ test: { reporters, maxWorkers, projects } });
}

/** A package whose unit tests run twice: in Node (with type tests) and in Chromium. */
export function nodeAndBrowserConfig(options: {
  name: string;
  browserInclude?: string[];
  /** See {@link sharedModulesProjects}; without it, every Node test file runs isolated. */
  ownModules?: string[];
}): ViteUserConfig {
  const { ownModules } = options;
  return projectsConfig([
    ...(ownModules
      ? sharedModulesProjects({ name: options.name, ownModules })
      : [nodeProject({ name: options.name })]),
    chromiumProject({
      name: `${options.name} (chromium)`,
      include: options.browserInclude ?? ["src/**/*.test.ts"],
    }),
  ]);
}

/**
 * A package's attack suite (`vitest.attack.config.ts`), reported beside its unit tests. Its files
 * run one at a time (vitest's default on two cores) unless `maxWorkers` says more.
 */
export function attackConfig(options: { name: string; maxWorkers?: number }): ViteUserConfig {
  const project = nodeProject({
    name: `${options.name} (attack)`,
    include: [ATTACK_TESTS],
    testTimeout: 120_000,
  });
  return defineConfig({
    ...project,
    test: {
      ...project.test,
      exclude: ["**/node_modules/**"],
      reporters: ["default", ["json", { outputFile: "test-artifacts/vitest-attack.json" }]],
      ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
    },
  });
}
