import { describe, expect, it } from "vitest";
import { type RunReport, renderJson, renderMarkdown } from "./report.js";
import { goals, makeRow } from "./row.js";

const machine = {
  cpuModel: "Test CPU",
  cores: 2,
  node: "v20.0.0",
  os: "linux 6",
  memoryGB: 8,
  loadAverage: 0.5,
};

function report(overrides: Partial<RunReport> = {}): RunReport {
  return {
    version: 1,
    mode: "full",
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 61_000,
    machine,
    rows: [
      makeRow({
        id: "fire.x",
        what: "`fire()` thing",
        ours: { label: "engine", unit: "ns", median: 30, p99: 120, n: 10 },
        baseline: { label: "empty", unit: "ns", median: 10, p99: 20, n: 10 },
        goal: goals.ratioAtMost(2, "≤ 2×"),
        smoke: false,
        note: "shared note",
      }),
      makeRow({
        id: "alloc.x",
        what: "allocation",
        ours: { label: "engine", unit: "B", median: 136 },
        baseline: { label: "empty", unit: "B", median: 0 },
        goal: goals.noAllocation(),
        smoke: false,
        note: "shared note",
      }),
    ],
    pending: [
      {
        id: "remote.ws",
        what: "remote hook over WebSocket",
        goal: "≤ 1.3×",
        reason: "not there yet",
        baseline: { label: "raw ws", unit: "ns", median: 150_000, p99: 900_000 },
      },
    ],
    ...overrides,
  };
}

describe("renderMarkdown", () => {
  it("prints both sides, the ratio, the goal and the verdict of every row", () => {
    const md = renderMarkdown(report());
    expect(md).toContain(
      "| what | ours | median | p99 | baseline | median | p99 | ratio | goal | met? |",
    );
    expect(md).toContain(
      "| `fire()` thing [1] | engine | 30 ns | 120 ns | empty | 10 ns | 20 ns | 3.00× | ≤ 2× | ❌ missed |",
    );
    // Bytes get no ratio (÷0 is not a number worth printing); the shared note keeps its number.
    expect(md).toContain(
      "| allocation [1] | engine | 136 B | – | empty | 0 B | – | – | no allocation per call | ❌ missed |",
    );
    expect(md).toContain("1. shared note");
    expect(md).not.toContain("2. shared note");
    expect(md).toContain("on 2 × Test CPU, 8 GB, Node v20.0.0");
    expect(md).toContain("**0 met, 2 missed**: fire.x, alloc.x.");
  });

  it("lists pending rows with their reason and the baseline measured, never a number for ours", () => {
    const md = renderMarkdown(report());
    expect(md).toContain("## Pending rows");
    expect(md).toContain(
      "| remote hook over WebSocket | ≤ 1.3× | not there yet | raw ws | 150 µs | 900 µs |",
    );
  });

  it("says a smoke run's numbers mean nothing", () => {
    expect(renderMarkdown(report({ mode: "smoke" }))).toMatch(
      /^# Benchmark results\n\n\*\*Smoke run\*\*/,
    );
    expect(renderMarkdown(report({ mode: "smoke" }))).toContain("`pnpm bench --smoke`");
  });

  it("keeps hostile text inside its cell: pipes escaped, newlines flattened", () => {
    const hostile = makeRow({
      id: "h",
      what: "a | b\n| c",
      ours: { label: "x|y", unit: "ns", median: 1 },
      goal: goals.none("g\r\nh"),
      smoke: false,
    });
    const line = renderMarkdown(report({ rows: [hostile], pending: [] }))
      .split("\n")
      .find((l) => l.startsWith("| a"))!;
    expect(line).toBe("| a \\| b \\| c | x\\|y | 1.0 ns | – | – | – | – | – | g h | – |");
    // Ten cells: the escaped pipes did not open new columns.
    expect(line.split(/(?<!\\)\|/).length - 2).toBe(10);
  });

  it("handles a run with no rows at all", () => {
    const md = renderMarkdown(report({ rows: [], pending: [] }));
    expect(md).toContain("**0 met, 0 missed**.");
    expect(md).not.toContain("## Pending rows");
    expect(md).not.toContain("## Notes");
  });
});

describe("renderJson", () => {
  it("round-trips the report", () => {
    const r = report();
    expect(JSON.parse(renderJson(r))).toEqual(JSON.parse(JSON.stringify(r)));
  });
});
