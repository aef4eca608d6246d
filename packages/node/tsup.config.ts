import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

/**
 * In the CLI's build, `linear-regex.ts`'s import of re2js gets src/support/re2js-on-demand.ts,
 * which loads re2js on the first pattern compiled rather than on every start.
 */
export const re2jsOnDemand: Plugin = {
  name: "re2js-on-demand",
  setup(build) {
    build.onResolve({ filter: /^re2js$/ }, ({ importer }) => {
      if (!importer.endsWith("linear-regex.ts")) throw new Error(`re2js imported by ${importer}`);
      return { path: fileURLToPath(new URL("src/support/re2js-on-demand.ts", import.meta.url)) };
    });
  },
};

const shared = {
  tsconfig: "tsconfig.build.json",
  // No source maps in the tarballs: they were most of each package's size; src/ ships beside dist.
  sourcemap: false,
  target: "es2022",
} as const;

export default defineConfig([
  {
    ...shared,
    entry: {
      index: "src/index.ts",
      "grpc-client": "src/grpc-client.ts",
      otel: "src/otel.ts",
      internal: "src/internal.ts",
      workspace: "src/workspace.ts",
      approvals: "src/approvals.ts",
    },
    format: ["esm", "cjs"],
    // Disposable and Symbol.dispose appear in the declarations: a consumer compiling with an
    // older `lib` (es2022) gets TypeScript's own declarations of them from this reference.
    // The declarations `tsc -b tsconfig.src.json` (the `types` task) emitted, bundled: the
    // types are computed once, there, and not again here.
    dts: {
      entry: Object.fromEntries(
        ["index", "grpc-client", "otel", "internal", "workspace", "approvals"].map((name) => [
          name,
          `.tsbuild/src/${name}.d.ts`,
        ]),
      ),
      banner: '/// <reference lib="esnext.disposable" />',
    },
    // dist/cli is the other build's.
    clean: ["!cli/**"],
    // import.meta.url in the CJS build too: the hook server finds proto/hooks.proto from it.
    shims: true,
  },
  {
    ...shared,
    // The a3s-hooks bin (bin/a3s-hooks.cjs imports it). Its start time is the user's wait on
    // every call, so it is its own build: zod and hooks-core are bundled in, which lets esbuild
    // drop what the CLI never uses (zod's 60-odd locales cost more to load than the rest of
    // zod), and each command is a chunk loaded only when that command runs, so `--help` loads
    // commander alone.
    entry: { "a3s-hooks": "src/cli/main.ts" },
    outDir: "dist/cli",
    format: ["esm"],
    splitting: true,
    clean: true,
    // re2js too, but only so that re2jsOnDemand (not the package) answers its import.
    noExternal: ["zod", "@a3s-lab/hooks-core", "re2js"],
    // Without comments and blank space: fewer bytes to read and parse on every start, and no
    // non-ASCII character left (a comment's "…"), so V8 keeps each chunk a one-byte string.
    // Names are kept, so a stack trace still reads.
    esbuildOptions(options) {
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
    esbuildPlugins: [re2jsOnDemand],
  },
]);
