import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/internal.ts", "src/wire.ts"],
  format: ["esm", "cjs"],
  // Handles are Disposable (`using`): a consumer compiling with an older `lib` (es2022) gets
  // TypeScript's own declarations of Disposable and Symbol.dispose from this reference.
  // The declarations `tsc -b tsconfig.src.json` (the `types` task) emitted, bundled: the types
  // are computed once, there, and not again here.
  dts: {
    entry: {
      index: ".tsbuild/src/index.d.ts",
      internal: ".tsbuild/src/internal.d.ts",
      wire: ".tsbuild/src/wire.d.ts",
    },
    banner: '/// <reference lib="esnext.disposable" />',
  },
  tsconfig: "tsconfig.build.json",
  // No source maps in the tarballs: they were most of each package's size; src/ ships beside dist.
  sourcemap: false,
  clean: true,
  target: "es2022",
});
