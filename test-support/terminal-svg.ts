/**
 * A terminal's output, colours included, as an SVG picture: what `pnpm screenshots` makes of
 * `pnpm demo` for the README. Only SGR sequences (colour, bold, dim) are drawn; any other escape
 * sequence is dropped.
 */

const FOREGROUND = "#e6edf3";
const BACKGROUND = "#0d1117";
/** ANSI colours 30–37, then their bright variants 90–97. */
const PALETTE = [
  "#484f58",
  "#ff7b72",
  "#3fb950",
  "#d29922",
  "#58a6ff",
  "#bc8cff",
  "#39c5cf",
  "#b1bac4",
  "#6e7681",
  "#ffa198",
  "#56d364",
  "#e3b341",
  "#79c0ff",
  "#d2a8ff",
  "#56d4dd",
  "#ffffff",
];
const FONT_SIZE = 13;
const LINE_HEIGHT = 18;
/** A monospace glyph is about 0.6 em wide; the picture is sized from the longest line. */
const CHAR_WIDTH = FONT_SIZE * 0.6;
const PADDING = 16;

interface Style {
  fg: string | undefined;
  bold: boolean;
  dim: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function applySgr(style: Style, params: string): Style {
  const next = { ...style };
  for (const code of (params === "" ? "0" : params).split(";").map(Number)) {
    if (code === 0) Object.assign(next, { fg: undefined, bold: false, dim: false });
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 22) Object.assign(next, { bold: false, dim: false });
    else if (code >= 30 && code <= 37) next.fg = PALETTE[code - 30];
    else if (code >= 90 && code <= 97) next.fg = PALETTE[code - 90 + 8];
    else if (code === 39) next.fg = undefined;
  }
  return next;
}

/**
 * Spaces become no-break spaces: renderers collapse runs of ordinary spaces in SVG text, whatever
 * `xml:space` says, and a terminal's indentation and columns are made of them.
 */
function span(raw: string, style: Style): string {
  const text = raw.replace(/ /g, "\u00a0");
  const attrs = [
    style.fg ? ` fill="${style.fg}"` : "",
    style.bold ? ' font-weight="bold"' : "",
    style.dim ? ' opacity="0.6"' : "",
  ].join("");
  return attrs === "" ? escapeXml(text) : `<tspan${attrs}>${escapeXml(text)}</tspan>`;
}

/** Text with its escape sequences removed: what a terminal shows. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
}

/**
 * One `<text>` per line of `output`, each run of one style a `<tspan>`; styles carry across
 * lines as they do in a terminal. `command`, when given, is drawn first as a prompt line.
 */
export function renderTerminalSvg(output: string, options: { command?: string } = {}): string {
  const lines = output.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  if (options.command !== undefined) lines.unshift(`\x1b[2m$\x1b[22m ${options.command}`);
  let style: Style = { fg: undefined, bold: false, dim: false };
  const texts: string[] = [];
  let widest = 0;
  lines.forEach((line, i) => {
    widest = Math.max(widest, [...stripAnsi(line)].length);
    let out = "";
    let last = 0;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
    const sequence = /\x1b\[([0-9;?]*)([A-Za-z])/g;
    for (let m = sequence.exec(line); m !== null; m = sequence.exec(line)) {
      if (m.index > last) out += span(line.slice(last, m.index), style);
      if (m[2] === "m") style = applySgr(style, m[1]!);
      last = sequence.lastIndex;
    }
    if (last < line.length) out += span(line.slice(last), style);
    texts.push(`<text x="${PADDING}" y="${PADDING + (i + 1) * LINE_HEIGHT - 4}">${out}</text>`);
  });
  const width = Math.ceil(PADDING * 2 + widest * CHAR_WIDTH);
  const height = PADDING * 2 + lines.length * LINE_HEIGHT;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(options.command !== undefined ? `Terminal output of ${options.command}` : "Terminal output")}</title>`,
    `<rect width="${width}" height="${height}" rx="6" fill="${BACKGROUND}"/>`,
    `<g font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="${FONT_SIZE}" fill="${FOREGROUND}">`,
    ...texts,
    "</g>",
    "</svg>",
    "",
  ].join("\n");
}
