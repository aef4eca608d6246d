/**
 * The README's picture of `pnpm demo`: docs/images/demo-transcript.svg, rendered from the demo's
 * real, coloured output. `pnpm screenshots` rewrites it; otherwise this checks it still shows
 * what the demo prints today.
 */
import { describe, expect, it } from "vitest";
import { keepTextImage } from "../../../test-support/screenshots.ts";
import { renderTerminalSvg, stripAnsi } from "../../../test-support/terminal-svg.ts";
import { assertWellFormedXml } from "../../../test-support/well-formed-xml.ts";
import { runCli } from "./cli-process.js";

/** Spaces are drawn as no-break spaces (renderers collapse the others); read them back. */
const nbsp = (svg: string) => svg.replace(/\u00a0/g, " ");

describe("renderTerminalSvg", () => {
  it("keeps a terminal's indentation: no space a renderer could collapse", () => {
    const svg = renderTerminalSvg("  a  b");
    expect(svg).toContain(">\u00a0\u00a0a\u00a0\u00a0b</text>");
  });

  it("draws one line of text per output line, colours and bold as tspans, text escaped", () => {
    const svg = nbsp(
      renderTerminalSvg(
        "\x1b[1mbold\x1b[22m plain\n\x1b[32m✔ <ok> & \x1b[2mdim\x1b[0m\n\x1b[2K\x1b[91mbright red",
        { command: "pnpm demo" },
      ),
    );
    assertWellFormedXml(svg);
    expect(svg.match(/<text /g)).toHaveLength(4);
    expect(svg).toContain('<tspan opacity="0.6">$</tspan> pnpm demo</text>');
    expect(svg).toContain('<tspan font-weight="bold">bold</tspan> plain</text>');
    expect(svg).toContain(
      '<tspan fill="#3fb950">✔ &lt;ok&gt; &amp; </tspan><tspan fill="#3fb950" opacity="0.6">dim</tspan></text>',
    );
    // Only SGR is drawn: the erase-line sequence is dropped, not printed.
    expect(svg).toContain('<tspan fill="#ffa198">bright red</tspan></text>');
    expect(svg).not.toContain("\x1b");
  });

  it("carries a colour across lines, as a terminal does", () => {
    const svg = nbsp(renderTerminalSvg("\x1b[34mone\ntwo\x1b[39m three"));
    expect(svg).toContain('<tspan fill="#58a6ff">two</tspan> three</text>');
  });

  it("is as wide as the longest line, counted in characters", () => {
    const width = (s: string) => Number(/width="(\d+)"/.exec(renderTerminalSvg(s))![1]);
    expect(width("\x1b[1m" + "é".repeat(10) + "\x1b[22m")).toBe(width("x".repeat(10)));
    expect(width("x".repeat(20))).toBeGreaterThan(width("x".repeat(10)));
  });

  it("is checked by a parser that refuses broken XML", () => {
    expect(() => assertWellFormedXml("<svg><text>a & b</text></svg>")).toThrow(/unescaped &/);
    expect(() => assertWellFormedXml("<svg><g></svg>")).toThrow(/closes <g>/);
    expect(() => assertWellFormedXml("<svg><rect x=1/></svg>")).toThrow(/not XML/);
  });
});

/** What differs between two runs of the demo: its temporary folder and the session id. */
const normalize = (svg: string) =>
  svg
    .replace(/^<svg [^>]*>/, "<svg>")
    .replace(/[^\s<>"]*a3s-demo-[A-Za-z0-9]{6}/g, "<workdir>")
    .replace(/session\s[0-9a-f]{8}/g, "session <id>");

describe("docs/images/demo-transcript.svg", () => {
  it("is the demo's current transcript", async () => {
    const run = await runCli(["run"], { env: { FORCE_COLOR: "1" } });
    expect(run.code, run.stderr).toBe(0);
    expect(stripAnsi(run.stdout)).toContain("A3S hooks demo");
    const svg = renderTerminalSvg(run.stdout, { command: "pnpm demo" });
    assertWellFormedXml(svg);
    await keepTextImage("demo-transcript.svg", svg, normalize);
  });
});
