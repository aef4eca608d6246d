import { packageConfig } from "../../vitest.shared.ts";

const config = packageConfig({ name: "node" });
// @opentelemetry/api's "module" build imports files without their extension, which only a
// bundler resolves; Node itself loads its CommonJS build, and so do these tests.
for (const resolve of [config.resolve, config.ssr?.resolve]) {
  if (resolve?.conditions) resolve.conditions = resolve.conditions.filter((c) => c !== "module");
}

export default config;
