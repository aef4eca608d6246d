import { describeSide, formatRatio, formatValue } from "./format.js";
import type { Machine } from "./machine.js";
import type { PendingRow, Row, Verdict } from "./row.js";

/** The chart of the ratios, written next to results.md by the same run. */
export const CHART_FILE = "results.svg";

/** Everything one run produced: what `results.json` holds. */
export interface RunReport {
  /** Bumped when the JSON shape changes. */
  version: 1;
  mode: "full" | "smoke";
  startedAt: string;
  durationMs: number;
  machine: Machine;
  rows: Row[];
  pending: PendingRow[];
}

const VERDICT: Record<Verdict, string> = {
  met: "✅ met",
  missed: "❌ missed",
  unjudged: "– (smoke)",
  info: "–",
};

/** Markdown table cells may not contain raw pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/(?<!\\)\|/g, "\\|");
}

/**
 * The results table as Markdown: one line per row, ours and the baseline side by side, the
 * ratio of medians, the goal and whether it was met; then pending rows, then the notes.
 */
export function renderMarkdown(report: RunReport): string {
  const m = report.machine;
  const out: string[] = [
    "# Benchmark results",
    "",
    `${report.mode === "smoke" ? "**Smoke run** (a few iterations, goals not judged): these numbers mean nothing. " : ""}` +
      `Run ${report.startedAt} in ${(report.durationMs / 1000).toFixed(1)} s with \`pnpm bench${report.mode === "smoke" ? " --smoke" : ""}\`, ` +
      `on ${m.cores} × ${m.cpuModel}, ${m.memoryGB} GB, Node ${m.node}, ${m.os}; load average ${m.loadAverage} at the start.`,
    "",
    "Every ratio compares two sides measured in this same run (ours ÷ baseline, medians; above 1 means ours costs more). " +
      "Absolute times drift with the machine's load; read the ratios. See README.md for how each row is measured.",
    "",
    `![The timed rows' ratios against their goals](${CHART_FILE})`,
    "",
    "| what | ours | median | p99 | baseline | median | p99 | ratio | goal | met? |",
    "|---|---|---:|---:|---|---:|---:|---:|---|---|",
  ];
  const notes: string[] = [];
  for (const row of report.rows) {
    let what = cell(row.what);
    if (row.note) {
      // Rows that share a note share its number.
      let n = notes.indexOf(row.note) + 1;
      if (n === 0) n = notes.push(row.note);
      what += ` [${n}]`;
    }
    const b = row.baseline;
    out.push(
      `| ${[
        what,
        cell(describeSide(row.ours)),
        formatValue(row.ours.median, row.ours.unit),
        formatValue(row.ours.p99, row.ours.unit),
        b ? cell(describeSide(b)) : "–",
        b ? formatValue(b.median, b.unit) : "–",
        b ? formatValue(b.p99, b.unit) : "–",
        row.ours.unit === "B" ? "–" : formatRatio(row.ratio),
        cell(row.goal),
        VERDICT[row.verdict],
      ].join(" | ")} |`,
    );
  }
  if (report.pending.length > 0) {
    out.push(
      "",
      "## Pending rows",
      "",
      "These rows are not in the table because our side of them does not exist yet, or because what they need is missing on this machine (the reason says which). A baseline measured in this run shows the harness works; the row appears above as soon as our code lands or the machine has what it needs.",
      "",
      "| what | goal | why pending | baseline measured in this run | median | p99 |",
      "|---|---|---|---|---:|---:|",
    );
    for (const p of report.pending) {
      const b = p.baseline;
      out.push(
        `| ${[
          cell(p.what),
          cell(p.goal),
          cell(p.reason),
          b ? cell(describeSide(b)) : "–",
          b ? formatValue(b.median, b.unit) : "–",
          b ? formatValue(b.p99, b.unit) : "–",
        ].join(" | ")} |`,
      );
    }
  }
  if (notes.length > 0) {
    out.push("", "## Notes", "");
    notes.forEach((n, i) => {
      out.push(`${i + 1}. ${n}`);
    });
  }
  const missed = report.rows.filter((r) => r.verdict === "missed");
  out.push(
    "",
    `**${report.rows.filter((r) => r.verdict === "met").length} met, ${missed.length} missed**${missed.length > 0 ? `: ${missed.map((r) => r.id).join(", ")}` : ""}.`,
    "",
  );
  return out.join("\n");
}

/** `results.json`: the same data, machine-readable, numbers in ns and bytes. */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
