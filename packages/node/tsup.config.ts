import { defineConfig } from "tsup";

export default defineConfig({
  // `cli` is the a3s-hooks bin (bin/a3s-hooks.cjs loads the CJS build, which Node loads
  // without ESM resolution rules); tsup keeps its shebang and makes it executable.
  entry: {
    index: "src/index.ts",
    "grpc-client": "src/grpc-client.ts",
    otel: "src/otel.ts",
    internal: "src/internal.ts",
    workspace: "src/workspace.ts",
    cli: "src/cli/main.ts",
  },
  format: ["esm", "cjs"],
  // Disposable and Symbol.dispose appear in the declarations: a consumer compiling with an
  // older `lib` (es2022) gets TypeScript's own declarations of them from this reference.
  dts: { banner: '/// <reference lib="esnext.disposable" />' },
  tsconfig: "tsconfig.build.json",
  // No source maps in the tarballs: they were most of each package's size; src/ ships beside dist.
  sourcemap: false,
  clean: true,
  target: "es2022",
  // import.meta.url in the CJS build too: the hook server finds proto/hooks.proto from it.
  shims: true,
});
