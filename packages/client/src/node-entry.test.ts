import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** What the Node entry of @a3s-lab/box pulls in: our source files and the npm packages it imports. */
async function footprint(entry: string) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    conditions: ["@a3s-lab/source"],
    logLevel: "silent",
    plugins: [
      {
        // Keep every npm package out of the bundle, so the metafile names it as an import.
        name: "npm-external",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@a3s-lab/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const files = Object.keys(result.metafile.inputs);
  const packages = new Set(
    Object.values(result.metafile.outputs).flatMap((o) =>
      o.imports
        .filter((i) => i.external)
        .map((i) =>
          i.path
            .split("/")
            .slice(0, i.path.startsWith("@") ? 2 : 1)
            .join("/"),
        ),
    ),
  );
  return { files, packages };
}

describe("the Node entry of @a3s-lab/box", () => {
  it("loads hooks-node's gRPC client transport only: no server, settings, CLI or YAML", async () => {
    const { files, packages } = await footprint("./index.ts");
    const fromNode = files.filter((f) => /(^|\/)node\/src\//.test(f));
    expect(fromNode.some((f) => f.endsWith("grpc/grpc-transport.ts"))).toBe(true);
    expect(fromNode.filter((f) => /\/(server|settings|cli|command|audit)\//.test(f))).toEqual([]);
    for (const heavy of ["yaml", "commander", "re2js"]) expect(packages.has(heavy)).toBe(false);
    expect(packages.has("@grpc/grpc-js")).toBe(true);
  });
});
