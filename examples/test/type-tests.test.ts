/**
 * The type tests (`*.test-d.ts`) of every package are compiled by that package's `typecheck`
 * script, which the test command runs before the tests; vitest does not compile them a second
 * time. This keeps that true for every package of the workspace.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { typeTestsOutsideTypecheck } from "../../test-support/type-tests.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function workspacePackages(): string[] {
  const nested = ["packages", "apps", "clients"].flatMap((parent) =>
    readdirSync(join(ROOT, parent)).map((name) => join(ROOT, parent, name)),
  );
  return [...nested, join(ROOT, "bench"), join(ROOT, "examples")].filter((dir) =>
    existsSync(join(dir, "package.json")),
  );
}

it("each package's typecheck script compiles every one of its type tests", () => {
  const reports = workspacePackages().map((dir) => ({ dir, ...typeTestsOutsideTypecheck(dir) }));
  // The four packages with type tests today, so that a broken search cannot pass by finding none.
  const withTypeTests = reports.filter((r) => r.typeTests.length > 0).map((r) => r.dir);
  expect(withTypeTests).toEqual(
    expect.arrayContaining(
      ["core", "client", "ai-sdk", "claude-agent-sdk"].map((name) => join(ROOT, "packages", name)),
    ),
  );
  expect(reports.flatMap((r) => r.unchecked)).toEqual([]);
}, 60_000);
