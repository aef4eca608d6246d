import { formatRatio } from "./format.js";
import type { Row, Verdict } from "./row.js";

const COLOUR: Record<Verdict, string> = {
  met: "#2da44e",
  missed: "#cf222e",
  unjudged: "#8c959f",
  info: "#8c959f",
};

const ROW_HEIGHT = 22;
const TOP = 74;
const LABEL_WIDTH = 560;
const PLOT_LEFT = LABEL_WIDTH + 10;
const PLOT_WIDTH = 360;
const WIDTH = PLOT_LEFT + PLOT_WIDTH + 310;
/** Past this many characters a row's label is cut; the whole text stays in its tooltip. */
const LABEL_CHARS = 88;

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The `what` column without Markdown: backticks and escaped pipes read badly in a picture. */
function plain(text: string): string {
  return text.replace(/`/g, "").replace(/\\\|/g, "|");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The rows the chart shows: timed rows with a ratio. Sizes (bytes) have no ratio worth drawing. */
export function chartRows(rows: readonly Row[]): Row[] {
  return rows.filter((r) => r.ours.unit === "ns" && r.ratio !== undefined && r.ratio > 0);
}

/**
 * `results.svg`: one horizontal bar per timed row, from 1× (as costly as the baseline) to the
 * row's ratio on a log scale, coloured by verdict, with a black mark at the goal where the goal
 * can be read as a ratio. Log scale, because the ratios run from under 1 to a few hundred and a
 * 0.5× and a 2× are the same distance from even.
 */
export function renderChart(rows: readonly Row[]): string {
  const shown = chartRows(rows);
  const values = shown.flatMap((r) => [
    r.ratio!,
    ...(r.goalRatio === undefined ? [] : [r.goalRatio]),
  ]);
  // Whole powers of two at both ends, and never narrower than ½× … 4×, so even a chart of
  // near-equal rows shows where 1× is.
  const lo = Math.min(-1, Math.floor(Math.log2(Math.min(...values, 1))));
  const hi = Math.max(2, Math.ceil(Math.log2(Math.max(...values, 1))));
  const x = (ratio: number) => PLOT_LEFT + ((Math.log2(ratio) - lo) / (hi - lo)) * PLOT_WIDTH;
  const height = TOP + shown.length * ROW_HEIGHT + 40;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">Ours ÷ baseline, medians, log scale</text>`,
    `<text x="10" y="38" fill="#57606a">Bars run from 1× (as costly as the baseline). Green: goal met; red: missed; grey: no goal, or not judged. Black mark: the goal.</text>`,
  ];
  // Every other tick label once there are too many to fit; 1× always has one.
  const step = hi - lo > 8 ? 2 : 1;
  for (let e = lo; e <= hi; e++) {
    const tx = x(2 ** e).toFixed(1);
    out.push(
      `<line x1="${tx}" y1="${TOP - 8}" x2="${tx}" y2="${TOP + shown.length * ROW_HEIGHT}" stroke="${e === 0 ? "#57606a" : "#d0d7de"}" stroke-width="1"/>`,
    );
    if (e % step === 0) {
      out.push(
        `<text x="${tx}" y="${TOP - 12}" text-anchor="middle" fill="#57606a">${2 ** e}×</text>`,
      );
    }
  }
  shown.forEach((row, i) => {
    const y = TOP + i * ROW_HEIGHT;
    const what = plain(row.what);
    const label = clip(what, LABEL_CHARS);
    const from = x(1);
    const to = x(row.ratio!);
    out.push(
      `<g class="row" data-id="${escapeXml(row.id)}">`,
      `<title>${escapeXml(`${what}: ${formatRatio(row.ratio)}, goal ${plain(row.goal)}`)}</title>`,
      `<text x="${LABEL_WIDTH}" y="${y + 15}" text-anchor="end">${escapeXml(label)}</text>`,
      `<rect class="bar" x="${Math.min(from, to).toFixed(1)}" y="${y + 4}" width="${Math.max(Math.abs(to - from), 1).toFixed(1)}" height="${ROW_HEIGHT - 8}" fill="${COLOUR[row.verdict]}"/>`,
    );
    if (row.goalRatio !== undefined) {
      const gx = x(row.goalRatio).toFixed(1);
      out.push(
        `<line class="goal" x1="${gx}" y1="${y + 1}" x2="${gx}" y2="${y + ROW_HEIGHT - 1}" stroke="#000000" stroke-width="3"/>`,
      );
    }
    out.push(
      // Rows that differ only in their baseline share a `what`; the baseline tells them apart.
      `<text x="${PLOT_LEFT + PLOT_WIDTH + 10}" y="${y + 15}">${escapeXml(`${formatRatio(row.ratio)} vs ${clip(plain(row.baseline?.label ?? ""), 36)}`)}</text>`,
      "</g>",
    );
  });
  out.push("</svg>", "");
  return out.join("\n");
}
