import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  // Disposable and Symbol.dispose appear in the declarations: a consumer compiling with an
  // older `lib` (es2022) gets TypeScript's own declarations of them from this reference.
  // The declarations `tsc -b tsconfig.src.json` (the `types` task) emitted, bundled: the types
  // are computed once, there, and not again here.
  dts: {
    entry: { index: ".tsbuild/src/index.d.ts" },
    banner: '/// <reference lib="esnext.disposable" />',
  },
  tsconfig: "tsconfig.build.json",
  // No source maps in the tarballs: they were most of each package's size; src/ ships beside dist.
  sourcemap: false,
  clean: true,
  target: "es2022",
});
