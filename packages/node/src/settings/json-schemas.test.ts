import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { safeNormalizeHookOutput } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { hookOutputSchema } from "../handlers/command/hook-output-schema.js";
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
      retry_delay_ms: 1,
      retryDelay: 1,
      permission: "allow",
      continue: true,
      stopReason: "x",
      decision: "approve",
      reason: "x",
      systemMessage: "x",
      suppressOutput: false,
      additionalContext: "x",
      updatedInput: {},
      terminalSequence: "\u0007",
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
      const result = safeNormalizeHookOutput({ [key]: value });
      expect({ key, ok: result.success }).toEqual({ key, ok: true });
    }
  });

  // Core keeps its dialect schema private; a proxy records which fields its normaliser reads.
  const fieldsCoreReads = (wrap: (probe: object) => unknown): string[] => {
    const read = new Set<string>();
    const probe = new Proxy(
      {},
      {
        get(target, key) {
          if (typeof key === "string") read.add(key);
          return Reflect.get(target, key);
        },
      },
    );
    expect(safeNormalizeHookOutput(wrap(probe)).success).toBe(true);
    return [...read].sort();
  };
  const hookSpecificShape = hookOutputSchema.shape.hookSpecificOutput.unwrap().shape;

  it("list every stdout field that core's normaliser reads", () => {
    const top = fieldsCoreReads((probe) => probe);
    expect(top).toContain("action");
    expect(top).toEqual(Object.keys(hookOutputSchema.shape).sort());
    const nested = fieldsCoreReads((probe) => ({ hookSpecificOutput: probe }));
    expect(nested).toContain("permissionDecision");
    expect(nested).toEqual(Object.keys(hookSpecificShape).sort());
  });

  it("accept every value core's normaliser accepts", () => {
    const words = ["allow", "deny", "ask", "none", "approve", "block", "modify"];
    const actions = ["continue", "block", "retry", "skip"];
    const probes: unknown[] = [null, true, false, 0, 1.5, "x", {}, [], ...words, ...actions];
    for (const a of actions) probes.push(a.toUpperCase());
    const wraps: Record<string, (key: string, value: unknown) => unknown> = {
      top: (key, value) => ({ [key]: value }),
      hookSpecificOutput: (key, value) => ({ hookSpecificOutput: { [key]: value } }),
      "hookSpecificOutput.decision": (key, value) => ({
        hookSpecificOutput: { decision: { behavior: "allow", [key]: value } },
      }),
    };
    const keys: Record<string, string[]> = {
      top: Object.keys(hookOutputSchema.shape),
      hookSpecificOutput: Object.keys(hookSpecificShape),
      "hookSpecificOutput.decision": ["behavior", "updatedInput", "message"],
    };
    let checked = 0;
    for (const [where, wrap] of Object.entries(wraps)) {
      for (const key of keys[where] ?? []) {
        for (const value of probes) {
          const output = wrap(key, value);
          if (!safeNormalizeHookOutput(output).success) continue;
          checked++;
          const ours = hookOutputSchema.safeParse(output).success;
          expect({ where, key, value, ours }).toEqual({ where, key, value, ours: true });
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
