import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { re2jsOnDemand } from "../../tsup.config.ts";

/**
 * The CLI's start time is the user's wait on every call, so its build (tsup.config.ts) bundles
 * zod and hooks-core and splits one chunk per command. This bundles `main.ts` the same way
 * (hooks-core from source) and checks what that buys: no zod locale, and `--help` loading no
 * zod at all. `import { z } from "zod"` anywhere the CLI reaches brings every locale back.
 */
const root = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const BUNDLED = ["zod", "@a3s-lab/hooks-core", "re2js"];
// tsup leaves the package's dependencies to node_modules, but for those it is told to bundle.
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.peerDependencies),
].filter((name) => !BUNDLED.includes(name));

let metafile: Metafile;
beforeAll(async () => {
  const result = await build({
    entryPoints: { "a3s-hooks": resolve(import.meta.dirname, "main.ts") },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    outdir: "/virtual/dist/cli",
    write: false,
    metafile: true,
    external: external.flatMap((name) => [name, `${name}/*`]),
    conditions: ["@a3s-lab/source"],
    plugins: [re2jsOnDemand],
    logLevel: "error",
  });
  metafile = result.metafile;
}, 120_000);

/** The outputs an entry loads before it runs: itself and its static imports, transitively. */
function loadedAtStart(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const i of metafile.outputs[path]?.imports ?? []) {
      if (i.kind === "import-statement" && !i.external) visit(i.path);
    }
  };
  visit(entry);
  return [...seen];
}

describe("the a3s-hooks CLI build", () => {
  it("carries none of zod's locales but English", () => {
    // What kept bytes in some chunk: esbuild resolves every locale, and drops the unused.
    const inputs = Object.values(metafile.outputs).flatMap((out) =>
      Object.entries(out.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(inputs.some((p) => p.includes("/zod/"))).toBe(true);
    expect(inputs.filter((p) => /\/zod\/v4\/locales\/(?!en\.js$)/.test(p))).toEqual([]);
  });

  it("loads neither zod nor hooks-core for --help: only its own entry and commander", () => {
    const entry = Object.keys(metafile.outputs).find((p) => p.endsWith("/a3s-hooks.js"))!;
    expect(entry).toBeDefined();
    const atStart = loadedAtStart(entry).flatMap((out) =>
      Object.entries(metafile.outputs[out]?.inputs ?? {})
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(atStart.some((p) => p.endsWith("cli/run-cli.ts"))).toBe(true);
    expect(atStart.filter((p) => p.includes("/zod/") || p.includes("core/src/"))).toEqual([]);
    const external = loadedAtStart(entry).flatMap((out) =>
      (metafile.outputs[out]?.imports ?? [])
        .filter((i) => i.external && i.kind === "import-statement")
        .map((i) => i.path),
    );
    expect(external.filter((p) => !p.startsWith("node:"))).toEqual(["commander"]);
  });

  it("loads neither node:http, node:https nor DNS for validate at start", () => {
    // They load on an http hook's first request.
    const entry = Object.keys(metafile.outputs).find((p) =>
      /\/validate-command-[^/]*\.js$/.test(p),
    );
    expect(entry).toBeDefined();
    const external = loadedAtStart(entry!).flatMap((out) =>
      (metafile.outputs[out]?.imports ?? [])
        .filter((i) => i.external && i.kind === "import-statement")
        .map((i) => i.path),
    );
    expect(external).toContain("node:path");
    const lazy = ["node:http", "node:https", "node:dns", "node:dns/promises"];
    expect(external.filter((p) => lazy.includes(p))).toEqual([]);
  });

  it("builds no schema for validate that only the published JSON Schemas use", () => {
    // hook-input-schema.ts describes a hook's stdin field by field: dozens of zod schemas that
    // `toHookInput` does not need, built at import.
    const entry = Object.keys(metafile.outputs).find((p) =>
      /\/validate-command-[^/]*\.js$/.test(p),
    );
    const inputs = loadedAtStart(entry!).flatMap((out) =>
      Object.entries(metafile.outputs[out]?.inputs ?? {})
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(inputs.some((p) => p.endsWith("handlers/hook-input.ts"))).toBe(true);
    expect(inputs.filter((p) => /hook-input-schema\.ts$|json-schemas\.ts$/.test(p))).toEqual([]);
  });

  it("loads re2js on the first pattern compiled, not at start", () => {
    // A quarter of a megabyte of JavaScript that `--help` and most `validate` calls never use.
    const inputs = Object.values(metafile.outputs).flatMap((out) =>
      Object.entries(out.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(inputs.some((p) => p.endsWith("support/re2js-on-demand.ts"))).toBe(true);
    expect(inputs.filter((p) => p.includes("/re2js/"))).toEqual([]);
    const imports = Object.values(metafile.outputs).flatMap((out) =>
      out.imports.filter((i) => i.external).map((i) => i.path),
    );
    expect(imports).not.toContain("re2js");
  });
});
