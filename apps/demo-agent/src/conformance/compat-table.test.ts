import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCases, SUITE_DIR } from "./conformance-cases.js";

const README = path.resolve(import.meta.dirname, "../../../../packages/node/README.md");
const HEADING = "**Answers and input, proven by the conformance suite**";

/** The rows of the README's table of answers and input: what, status, and the cases named. */
async function rows(): Promise<{ what: string; status: string; cases: string[] }[]> {
  const text = await readFile(README, "utf8");
  const start = text.indexOf(HEADING);
  expect(start, "the README has the table").toBeGreaterThan(-1);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("| what |"));
  const table: string[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    table.push(line);
  }
  return table.map((line) => {
    const [what = "", status = "", cases = ""] = line.slice(1, -1).split(" | ");
    return {
      what: what.trim(),
      status: status.trim(),
      cases: [...cases.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    };
  });
}

describe("hooks-node's README: the table of answers and input", () => {
  it("names, for every supported row, cases that the conformance suite has", async () => {
    const ids = new Set((await loadCases()).map((c) => c.id));
    const inputs = new Set(
      (await readdir(path.join(SUITE_DIR, "inputs"))).map(
        (f) => `input:${f.replace(/\.json$/, "")}`,
      ),
    );
    const table = await rows();
    expect(table.length).toBeGreaterThan(5);
    for (const row of table) {
      if (!row.status.startsWith("supported")) continue;
      expect(row.cases.length, row.what).toBeGreaterThan(0);
      for (const id of row.cases)
        expect(ids.has(id) || inputs.has(id), `${row.what}: ${id}`).toBe(true);
    }
  });

  it("leaves no case of the suite out of the table", async () => {
    const named = new Set((await rows()).flatMap((r) => r.cases));
    const missing = (await loadCases()).map((c) => c.id).filter((id) => !named.has(id));
    expect(missing).toEqual([]);
  });
});
