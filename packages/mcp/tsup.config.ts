import { defineConfig } from "tsup";

export default defineConfig({
  // `bin` is the a3s-hooks-mcp command (bin/a3s-hooks-mcp.cjs loads the CJS build).
  entry: { index: "src/index.ts", bin: "src/bin.ts" },
  format: ["esm", "cjs"],
  dts: true,
  tsconfig: "tsconfig.build.json",
  sourcemap: true,
  clean: true,
  target: "es2022",
  // import.meta.url in the CJS build too: the hook server finds hooks.proto from it.
  shims: true,
});
