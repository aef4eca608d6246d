import * as z from "zod";
import { hookOutputSchema } from "../handlers/command/hook-output-schema.js";
import { hookInputSchema } from "../handlers/hook-input-schema.js";
import { settingsFileSchema } from "./settings-schema.js";

type Json = Record<string, unknown>;

const convert = (schema: z.ZodType, title: string): Json => ({
  ...z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }),
  title,
});

/**
 * Every event key holds the same schema; write it once under `$defs` and point at it, so the
 * file stays small enough for editors to load quickly.
 */
function shareEventSchema(schema: Json): Json {
  const hooks = (schema.properties as Json).hooks as Json;
  const shared = hooks.additionalProperties as Json;
  const text = JSON.stringify(shared);
  const ref = { $ref: "#/$defs/EventHooks" };
  const properties = hooks.properties as Record<string, Json>;
  for (const [key, value] of Object.entries(properties)) {
    if (JSON.stringify(value) === text) properties[key] = ref;
  }
  hooks.additionalProperties = ref;
  return { ...schema, $defs: { EventHooks: shared } };
}

/**
 * The JSON Schemas shipped in `@a3s-lab/hooks-node/schemas/`, generated from the zod schemas
 * the code uses: the settings file (usable as `$schema` in editors), and a command hook's
 * stdin and stdout. `scripts/generate-schemas.ts` writes them; a test fails when they are stale.
 */
export function settingsJsonSchemas(): Record<string, Record<string, unknown>> {
  return {
    "settings.schema.json": shareEventSchema(convert(settingsFileSchema, "A3S hooks settings")),
    "hook-input.schema.json": convert(hookInputSchema, "A3S command hook stdin"),
    "hook-output.schema.json": convert(hookOutputSchema, "A3S command hook stdout"),
  };
}
