import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { HttpHandler } from "@a3s-lab/hooks-node";

const UI_DIR = fileURLToPath(new URL("./ui/", import.meta.url));

/** The page's files, ready to serve. */
export interface UiAssets {
  html: string;
  css: string;
  /** `src/ui/page.ts` with `@a3s-lab/box` (its browser entry), bundled for browsers. */
  js: string;
}

/**
 * Read the page and bundle its script with esbuild (about a tenth of a second), so the
 * demo serves exactly what a web app would ship: `@a3s-lab/box` resolved through the
 * `browser` export condition, no Node module in sight.
 */
export async function buildUi(): Promise<UiAssets> {
  // Loaded here, not with the module: only `serve --ui` bundles a page, and every command of
  // the CLI would otherwise load esbuild as it starts.
  const { build } = await import("esbuild");
  const [html, css, bundled] = await Promise.all([
    readFile(`${UI_DIR}index.html`, "utf8"),
    readFile(`${UI_DIR}app.css`, "utf8"),
    build({
      entryPoints: [`${UI_DIR}page.ts`],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      // The workspace's packages from source, as everywhere in the demo.
      conditions: ["@a3s-lab/source"],
      minify: true,
      target: "es2022",
      logLevel: "silent",
    }),
  ]);
  return { html, css, js: bundled.outputFiles[0]!.text };
}

// The page asks a person to approve tools: it must not be framed by another site (a click
// on Allow there would be clickjacking), nor load or reach anything but its own origin.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/**
 * The hook server's HTTP handler for the page: `/` (and `/index.html`), `/app.js`,
 * `/app.css`; 404 for anything else, 405 for anything but GET and HEAD.
 *
 * @example
 * ```ts
 * const server = await createHookServer({ engine, token, httpHandler: createUiHandler(await buildUi()) });
 * ```
 */
export function createUiHandler(assets: UiAssets): HttpHandler {
  const html: [string, string] = [assets.html, "text/html; charset=utf-8"];
  const files = new Map<string, [string, string]>([
    ["/", html],
    ["/index.html", html],
    ["/app.js", [assets.js, "text/javascript; charset=utf-8"]],
    ["/app.css", [assets.css, "text/css; charset=utf-8"]],
  ]);
  return (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", ...SECURITY_HEADERS }).end();
      return;
    }
    const path = new URL(request.url ?? "/", "http://page").pathname;
    const file = files.get(path);
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...SECURITY_HEADERS });
      response.end("Not found.\n");
      return;
    }
    const [body, type] = file;
    response.writeHead(200, {
      "content-type": type,
      "content-length": Buffer.byteLength(body),
      ...SECURITY_HEADERS,
    });
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
