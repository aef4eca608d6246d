import { gzipSync } from "node:zlib";
import { build, type StdinOptions } from "esbuild";

export interface BrowserBundle {
  /** The minified bundle. */
  code: string;
  /** Its gzipped size in bytes. */
  gzipped: number;
  /** Every input esbuild resolved (a `node:` one means something Node-only slipped in). */
  inputs: string[];
  /** The inputs that kept bytes in the output after tree-shaking. */
  used: string[];
}

/**
 * Bundle the way a web app's bundler would: platform browser (so the `browser` export condition
 * applies and a `node:` import fails the build), minified, with the workspace's
 * `@a3s-lab/source` condition standing in for the published dist.
 */
export async function bundleForBrowser(
  source: { entry: string } | { stdin: StdinOptions },
  options: { format?: "esm" | "iife"; globalName?: string } = {},
): Promise<BrowserBundle> {
  const result = await build({
    ...("entry" in source ? { entryPoints: [source.entry] } : { stdin: source.stdin }),
    bundle: true,
    write: false,
    platform: "browser",
    format: options.format ?? "esm",
    ...(options.globalName !== undefined ? { globalName: options.globalName } : {}),
    conditions: ["@a3s-lab/source"],
    minify: true,
    target: "es2022",
    logLevel: "silent",
    metafile: true,
  });
  const code = result.outputFiles[0]!.text;
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    code,
    gzipped: gzipSync(code).length,
    inputs: Object.keys(result.metafile.inputs),
    used: Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  };
}
