/**
 * Writes @a3s-lab/hooks-core's event catalogue as JSON (each event's JSON Schema, its spec row,
 * the aliases), so the Python SDK's tests check its dataclasses against the TypeScript source
 * of truth. usage: export-catalogue.ts <output.json>
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eventSpecs, hookEventNames } from "@a3s-lab/hooks-core";
import { eventAliases, eventSchemas } from "@a3s-lab/hooks-core/internal";

// core's own zod (this package does not depend on zod): the same module instance core built
// its schemas with.
const fromCore = createRequire(fileURLToPath(import.meta.resolve("@a3s-lab/hooks-core")));
const zodRoot = dirname(fromCore.resolve("zod/package.json"));
const { toJSONSchema } = (await import(
  pathToFileURL(join(zodRoot, "v4", "core", "index.js")).href
)) as typeof import("zod/v4/core");

const out = process.argv[2];
if (!out) throw new Error("usage: export-catalogue.ts <output.json>");
const events = Object.fromEntries(
  hookEventNames.map((name) => [
    name,
    {
      schema: toJSONSchema(eventSchemas[name] as never, { io: "input" }),
      canBlock: eventSpecs[name].canBlock,
      matcherTarget: eventSpecs[name].matcherTarget ?? null,
    },
  ]),
);
writeFileSync(out, `${JSON.stringify({ events, aliases: eventAliases }, null, 2)}\n`);
