import { HookError } from "@a3s-lab/hooks-core";

type Check = (value: unknown) => boolean;

/** Checks for the option fields the adapter's entry points take. */
export const is = {
  string: (v: unknown) => typeof v === "string",
  count: (v: unknown) => Number.isInteger(v) && (v as number) >= 0,
  function: (v: unknown) => typeof v === "function",
  object: (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v),
  booleanOrFunction: (v: unknown) => typeof v === "boolean" || typeof v === "function",
} satisfies Record<string, Check>;

/**
 * Throw `INVALID_CONFIG` naming the first field of `options` that fails its check. `required`
 * fields must be present; the others may be left out.
 */
export function checkOptions(
  options: unknown,
  fields: Record<string, { check: Check; expected: string; required?: boolean }>,
): void {
  if (typeof options !== "object" || options === null) {
    throw new HookError("INVALID_CONFIG", "options: expected an object", { path: ["options"] });
  }
  for (const [field, { check, expected, required }] of Object.entries(fields)) {
    const value = (options as Record<string, unknown>)[field];
    if (value === undefined && !required) continue;
    if (!check(value)) {
      throw new HookError("INVALID_CONFIG", `options.${field}: expected ${expected}`, {
        path: ["options", field],
      });
    }
  }
}
