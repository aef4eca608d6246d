import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const IN_NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** A bare specifier's package name: `zod` of `zod/mini`, `@grpc/grpc-js` of itself. */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/**
 * Installed packages stay where they are, but for those in `inline`: each import of one is
 * resolved now, as esbuild resolves it, and left in the bundle as that file's absolute path.
 * Node then loads them as it would under tsx (CommonJS stays CommonJS, a package finds its wasm
 * and native files beside itself), and the bundle works from any folder.
 */
function packagesInPlace(inline: readonly string[]): Plugin {
  const self = {};
  return {
    name: "packages-in-place",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === self || args.path.startsWith("node:")) return undefined;
        if (inline.includes(packageName(args.path))) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: self,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external || !resolved.path.includes(IN_NODE_MODULES)) return resolved;
        return { path: resolved.path, external: true };
      });
    },
  };
}

/**
 * The workspace's source files keep their own location: `import.meta.url`, `.dirname` and
 * `.filename` in them are written as the file's own, so code that finds files beside itself
 * (a proto file, the UI's folder, a suite of cases) finds them from the bundle too.
 */
const sourceLocations: Plugin = {
  name: "source-locations",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?tsx?$/ }, async (args) => {
      if (args.path.includes(IN_NODE_MODULES)) return undefined;
      const text = await readFile(args.path, "utf8");
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

/**
 * Bundle TypeScript programs of the workspace (the `@a3s-lab/source` condition, so the code
 * under test is the tree's `src/`) into one ES module each under `outdir`, to run with plain
 * `node`: a test that starts a CLI many times pays for transpiling once, not per process as
 * tsx does. Returns each entry's output file by name.
 *
 * `options.inline` names installed ES-module packages to bundle too, as the published CLI's
 * build bundles zod: esbuild then drops what the program never uses (zod's locales), which
 * every start would otherwise load.
 */
export async function bundleNodePrograms<Name extends string>(
  entries: Record<Name, string>,
  outdir: string,
  options: { inline?: readonly string[] } = {},
): Promise<Record<Name, string>> {
  await build({
    entryPoints: entries,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@a3s-lab/source"],
    plugins: [packagesInPlace(options.inline ?? []), sourceLocations],
    logLevel: "error",
  });
  const outputs = {} as Record<Name, string>;
  for (const name of Object.keys(entries) as Name[]) {
    outputs[name] = path.join(outdir, `${name}.mjs`);
  }
  return outputs;
}
