import { describe, expect, it } from "vitest";
import type { Row } from "../row.js";
import type { SuiteContext } from "../suite.js";
import { cliStartSuite } from "./cli-start.js";
import { sdkWeightSuite } from "./sdk-weight.js";
import { tinyProfile } from "./tiny-profile.js";

// These suites measure the packages as users get them: the built CLI, and the packed tarballs
// installed by npm. The bench's turbo `test` task builds the packages first.
const ctx: SuiteContext = { profile: tinyProfile, log: () => undefined };

function expectMeasured(rows: Row[]): void {
  for (const row of rows) {
    expect(row.ours.n, row.id).toBeGreaterThan(0);
    expect(row.ours.median, row.id).toBeGreaterThan(0);
    expect(row.baseline?.median, row.id).toBeGreaterThan(0);
    expect(["unjudged", "info"], row.id).toContain(row.verdict);
  }
}

describe("suites of the built packages (tiny runs, real processes)", () => {
  it("cli-start: the built a3s-hooks CLI's --help and validate, against node -e", async () => {
    const { rows, pending } = await cliStartSuite.run(ctx);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(["cli.start.help", "cli.start.validate"]);
    expectMeasured(rows);
  }, 60_000);

  it("sdk-weight: @a3s-lab/box packed, installed by npm and imported, against @grpc/grpc-js", async () => {
    const { rows, pending } = await sdkWeightSuite.run(ctx);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([
      "sdk.box.import",
      "sdk.hooks-node.import",
      "sdk.box.install",
    ]);
    expectMeasured(rows);
    // Sizes in bytes: box installs at least as much as grpc-js, which it depends on.
    const install = rows[2]!;
    expect(install.ours.unit).toBe("B");
    expect(install.ours.median).toBeGreaterThan(install.baseline!.median);
  }, 180_000);
});
