import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings. Every package resolves its sibling packages through the
 * `@a3s-lab/source` export condition, so tests run against `src/` with no build step.
 */
export const sourceConditions = ["@a3s-lab/source", ...defaultServerConditions];

export function packageConfig(options: { name: string; include?: string[]; testTimeout?: number }) {
  return defineConfig({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: ["@a3s-lab/source"] } },
    test: {
      name: options.name,
      include: options.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: options.testTimeout ?? 10_000,
      typecheck: { enabled: true, include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"] },
      reporters: ["default", ["json", { outputFile: "test-artifacts/vitest.json" }]],
      restoreMocks: true,
      unstubEnvs: true,
    },
  });
}
