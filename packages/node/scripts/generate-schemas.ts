/**
 * Write the JSON Schemas of `src/settings/json-schemas.ts` into `schemas/`.
 * Run with `pnpm --filter @a3s-lab/hooks-node generate:schemas` after changing a zod schema.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settingsJsonSchemas } from "../src/settings/json-schemas.js";

const dir = join(import.meta.dirname, "..", "schemas");
mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(settingsJsonSchemas())) {
  writeFileSync(join(dir, name), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${name}`);
}
