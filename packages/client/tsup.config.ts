import { defineConfig } from "tsup";

export default defineConfig({
  // index: Node (gRPC transport, A3S_* environment); browser: no Node imports at all.
  entry: ["src/index.ts", "src/browser.ts"],
  format: ["esm", "cjs"],
  dts: true,
  tsconfig: "tsconfig.build.json",
  sourcemap: true,
  clean: true,
  target: "es2022",
});
