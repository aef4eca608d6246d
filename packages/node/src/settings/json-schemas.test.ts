import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tryNormalizeHookOutput } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { hookOutputSchema } from "../command/hook-output-schema.js";
import { settingsJsonSchemas } from "./json-schemas.js";

const dir = resolve(import.meta.dirname, "../../schemas");

describe("the shipped JSON Schemas", () => {
  it.each(Object.entries(settingsJsonSchemas()))("%s is up to date", (name, schema) => {
    const committed = JSON.parse(readFileSync(join(dir, name), "utf8"));
    // If this fails: pnpm --filter @a3s-lab/hooks-node generate:schemas
    expect(committed).toEqual(schema);
  });

  it("describe the settings file's three shapes and editor-friendly hook objects", () => {
    const schema = settingsJsonSchemas()["settings.schema.json"] as {
      properties: { hooks: { properties: Record<string, unknown>; additionalProperties: unknown } };
      $defs: { EventHooks: { anyOf: unknown[] } };
    };
    expect(schema.properties.hooks.properties.PreToolUse).toEqual({ $ref: "#/$defs/EventHooks" });
    expect(schema.properties.hooks.additionalProperties).toEqual({ $ref: "#/$defs/EventHooks" });
    expect(schema.$defs.EventHooks.anyOf).toHaveLength(3);
    expect(JSON.stringify(schema)).toContain('"timeout_secs"');
  });

  it("list only stdout fields that core's normaliser reads", () => {
    const samples: Record<string, unknown> = {
      action: "continue",
      modified: {},
      delay: 1,
      permission: "allow",
      continue: true,
      stopReason: "x",
      decision: "approve",
      reason: "x",
      systemMessage: "x",
      suppressOutput: false,
      additionalContext: "x",
      updatedInput: {},
      hookSpecificOutput: { hookEventName: "PreToolUse" },
      modified_args: {},
      metadata: {},
      continue_execution: true,
      stop_reason: "x",
      system_message: "x",
      updated_input: {},
      additional_context: "x",
      suppress_logging: false,
    };
    expect(Object.keys(hookOutputSchema.shape).sort()).toEqual(Object.keys(samples).sort());
    for (const [key, value] of Object.entries(samples)) {
      const result = tryNormalizeHookOutput({ [key]: value });
      expect({ key, ok: result.success }).toEqual({ key, ok: true });
    }
  });
});
