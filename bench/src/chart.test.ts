import { describe, expect, it } from "vitest";
import { assertWellFormedXml } from "../../test-support/well-formed-xml.ts";
import { chartRows, renderChart } from "./chart.js";
import { goals, makeRow, type Side } from "./row.js";

const ns = (median: number): Side => ({ label: "x", unit: "ns", median, p99: median * 2 });

const rows = [
  makeRow({
    id: "met",
    what: "`fire()` & <friends>",
    ours: ns(15),
    baseline: ns(10),
    goal: goals.ratioAtMost(2, "≤ 2×"),
    smoke: false,
  }),
  makeRow({
    id: "missed",
    what: "matcher: alternatives (`Bash\\|Write`)",
    ours: ns(300),
    baseline: ns(100),
    goal: goals.ratioAtMost(1.3, "≤ 1.3×"),
    smoke: false,
  }),
  makeRow({
    id: "faster",
    what: "faster than hookable",
    ours: ns(46),
    baseline: ns(100),
    goal: goals.fasterThan(),
    smoke: false,
  }),
  makeRow({
    id: "overhead",
    what: "tool call, no hook",
    ours: ns(124),
    baseline: ns(30),
    goal: goals.overheadBelow(2000, "< 2 µs overhead"),
    smoke: false,
  }),
  makeRow({
    id: "info",
    what: "eventemitter3, a floor",
    ours: ns(2800),
    baseline: ns(10),
    goal: goals.none(),
    smoke: false,
  }),
  // Not drawn: bytes have no ratio worth a bar.
  makeRow({
    id: "alloc",
    what: "allocation",
    ours: { label: "x", unit: "B", median: 136 },
    baseline: { label: "y", unit: "B", median: 10 },
    goal: goals.noAllocation(),
    smoke: false,
  }),
];

describe("renderChart", () => {
  const svg = renderChart(rows);

  it("is well-formed SVG, whatever the row labels contain", () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    assertWellFormedXml(svg);
    expect(svg).toContain("fire() &amp; &lt;friends&gt;");
    expect(svg).toContain("matcher: alternatives (Bash|Write)");
  });

  it("draws one bar per timed row with a ratio, and none for sizes", () => {
    expect(chartRows(rows).map((r) => r.id)).toEqual([
      "met",
      "missed",
      "faster",
      "overhead",
      "info",
    ]);
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(5);
    expect(svg).not.toContain('data-id="alloc"');
  });

  it("colours each bar by its verdict and marks the goal where it is a ratio", () => {
    const group = (id: string) =>
      svg.match(new RegExp(`<g class="row" data-id="${id}">[^]*?</g>`))![0];
    expect(group("met")).toContain('fill="#2da44e"');
    expect(group("missed")).toContain('fill="#cf222e"');
    expect(group("info")).toContain('fill="#8c959f"');
    for (const id of ["met", "missed", "faster", "overhead"]) {
      expect(group(id)).toContain('<line class="goal"');
    }
    expect(group("info")).not.toContain('class="goal"');
    expect(svg.match(/<line class="goal"/g)).toHaveLength(4);
  });

  it("puts bars and goals on one log scale: a ratio past its goal ends right of the mark", () => {
    const at = (id: string) => {
      const g = svg.match(new RegExp(`<g class="row" data-id="${id}">[^]*?</g>`))![0];
      const bar = g.match(/class="bar" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/)!;
      const goal = g.match(/class="goal" x1="([\d.]+)"/);
      return {
        left: Number(bar[1]),
        right: Number(bar[1]) + Number(bar[2]),
        goal: goal ? Number(goal[1]) : undefined,
      };
    };
    const met = at("met"); // 1.5× against ≤ 2×
    const missed = at("missed"); // 3× against ≤ 1.3×
    const faster = at("faster"); // 0.46×: the bar grows left of 1×
    expect(met.right).toBeLessThan(met.goal!);
    expect(missed.right).toBeGreaterThan(missed.goal!);
    expect(faster.right).toBeCloseTo(met.left, 0);
    expect(faster.left).toBeLessThan(faster.goal!);
    // 2 µs over a 30 ns baseline: the goal sits at 67.7×, right of the 4.13× bar.
    expect(at("overhead").goal!).toBeGreaterThan(at("overhead").right);
  });

  it("still draws an axis with no rows", () => {
    const empty = renderChart([]);
    assertWellFormedXml(empty);
    expect(empty).toContain(">1×<");
    expect(empty).not.toContain('class="bar"');
  });
});

describe("goal ratios", () => {
  it("are the goal's limit over the baseline's median", () => {
    expect(rows.find((r) => r.id === "met")!.goalRatio).toBe(2);
    expect(rows.find((r) => r.id === "faster")!.goalRatio).toBe(1);
    expect(rows.find((r) => r.id === "overhead")!.goalRatio).toBeCloseTo(2030 / 30);
    expect(
      makeRow({
        id: "r",
        what: "w",
        ours: ns(40),
        baseline: ns(4),
        goal: goals.medianBelow(100, "< 100 ns"),
        smoke: false,
      }).goalRatio,
    ).toBe(25);
    expect(
      makeRow({
        id: "t",
        what: "w",
        ours: { ...ns(40), throughput: 10 },
        baseline: ns(4),
        goal: goals.throughputAtLeast(5, "≥ 5/s"),
        smoke: false,
      }).goalRatio,
    ).toBeUndefined();
  });
});
