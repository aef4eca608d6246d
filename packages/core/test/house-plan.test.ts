import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileTree } from "../../../test-support/file-tree.ts";
// @ts-expect-error: a plain ES module script, run by node as well; no declarations.
import { checkRooms } from "../scripts/check-rooms.mjs";

const check = checkRooms as (src?: string) => string[];

describe("hooks-core's house plan", () => {
  it("has no import cycle and no arrow upstairs or beside", () => {
    expect(check()).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), "core-house-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const house = (files: Record<string, string>) => writeFileTree(dir, files);

  it("names the merge reaching up into the engine, the engine beside the wire, and a cycle", () => {
    const problems = check(
      house({
        "merge/merge.ts":
          'import type { E } from "../engine/hook-engine.js";\nexport type M = E;\n',
        "engine/hook-engine.ts": 'import { w } from "../wire/wire.js";\nexport type E = 1;\n',
        "wire/wire.ts": "export const w = 1;\n",
        "events/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
        "events/b.ts": 'import type { A } from "./a.js";\nexport type B = A;\n',
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "merge/merge.ts imports engine/hook-engine.ts: engine is upstairs of merge",
        "engine/hook-engine.ts imports wire/wire.ts: wire is on the same floor as engine",
        "import cycle: events/a.ts ↔ events/b.ts",
      ]),
    );
  });
});
