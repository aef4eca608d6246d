import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileTree } from "../../../test-support/file-tree.ts";
// @ts-expect-error: a plain ES module script, run by node as well; no declarations.
import { checkRooms } from "../scripts/check-rooms.mjs";

const check = checkRooms as (src?: string, knownCycles?: string[]) => string[];

describe("hooks-node's house plan", () => {
  it("has no import cycle and no arrow upstairs or beside", () => {
    expect(check()).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), "house-plan-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const house = (files: Record<string, string>) => writeFileTree(dir, files);

  it("names an import from a lower room to a higher one, and one between rooms of a floor", () => {
    const problems = check(
      house({
        "hub/hook-hub.ts": 'import { x } from "../ws/ws-endpoint.js";\n',
        "ws/ws-endpoint.ts":
          'import type { y } from "../grpc/grpc-event-sink.js";\nexport const x = 1;\n',
        "grpc/grpc-event-sink.ts": "export type y = 1;\n",
      }),
      [],
    );
    expect(problems).toContain("hub/hook-hub.ts imports ws/ws-endpoint.ts: ws is upstairs of hub");
    expect(problems).toContain(
      "ws/ws-endpoint.ts imports grpc/grpc-event-sink.ts: grpc is on the same floor as ws",
    );
  });

  it("names a cycle inside one room, type-only imports included, and a file in no room", () => {
    const problems = check(
      house({
        "shell/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
        "shell/b.ts": 'import type { A } from "./a.js";\nexport type B = A;\n',
        "attic/c.ts": "export {};\n",
      }),
      [],
    );
    expect(problems).toContain("import cycle: shell/a.ts ↔ shell/b.ts");
    expect(problems).toContain(
      "attic/c.ts: in no room of the house plan (add its folder to FLOORS)",
    );
  });

  it("names an import that enters the shell module past its index", () => {
    const problems = check(
      house({
        "shell/index.ts": 'export { q } from "./shell-quote.js";\n',
        "shell/shell-quote.ts": "export const q = 1;\n",
        "settings/a.ts": 'import { q } from "../shell/shell-quote.js";\n',
        "settings/b.ts": 'import { q } from "../shell/index.js";\n',
      }),
      [],
    );
    expect(problems).toEqual([
      "settings/a.ts imports shell/shell-quote.ts: enter shell through its index.ts",
    ]);
  });
});
