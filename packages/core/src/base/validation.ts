import * as z from "zod/mini";
import { describeValue, HookError, type HookErrorCode } from "./hook-error.js";

/** zod-style result for callers who would rather not catch. */
export type ValidationResult<T> = { success: true; data: T } | { success: false; error: HookError };

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `hooks.PreToolUse[0].timeout` style rendering of a field path. */
export function formatPath(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key))
      out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** The value at a zod issue's path in the input it was about. */
export function valueAt(root: unknown, path: Path): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * One human sentence for one zod issue and the value it is about: "expected a positive number,
 * got -5". A schema's own message that starts with "expected" (`"expected a positive number
 * (seconds)"`) is used as written.
 */
export function describeZodIssue(issue: Issue, value: unknown): string {
  const got = `got ${describeValue(value)}`;
  if (issue.message?.startsWith("renamed to ")) return issue.message;
  if (issue.message?.startsWith("expected")) {
    return value === undefined ? `is required (${issue.message})` : `${issue.message}, ${got}`;
  }
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `is required (expected ${issue.expected})`;
      return `expected ${issue.expected}, ${got} (${kindOf(value)})`;
    case "too_small": {
      const bound = Number(issue.minimum);
      if (issue.origin === "number") {
        const positive = bound === 0 && !issue.inclusive;
        return positive
          ? `expected a positive number, ${got}`
          : `expected a number >= ${bound}, ${got}`;
      }
      return `expected at least ${bound} ${issue.origin === "string" ? "characters" : "items"}, ${got}`;
    }
    case "too_big": {
      const bound = Number(issue.maximum);
      if (issue.origin === "number") return `expected a number <= ${bound}, ${got}`;
      return `expected at most ${bound} ${issue.origin === "string" ? "characters" : "items"}, got ${String(
        (value as { length?: unknown } | null | undefined)?.length,
      )}`;
    }
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, ${got}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    case "invalid_union":
      return `does not match any accepted form, ${got}`;
    case "invalid_format":
      return `expected a valid ${issue.format}, ${got}`;
    case "not_multiple_of":
      return `expected a multiple of ${String(issue.divisor)}, ${got}`;
    default:
      return issue.message && issue.message !== "Invalid input"
        ? `${issue.message}, ${got}`
        : `is invalid, ${got}`;
  }
}

/**
 * The schema of an option that was renamed: any value is refused with the new name, so code
 * written for the old spelling fails loudly instead of being ignored.
 *
 * @example
 * ```ts
 * z.object({ timeoutMs: z.optional(z.number()), timeout: renamedOption("timeoutMs") });
 * // registration.timeout: renamed to timeoutMs
 * ```
 */
export function renamedOption(name: string): z.ZodMiniOptional<z.ZodMiniUndefined> {
  return z.optional(z.undefined({ error: `renamed to ${name}` }));
}

/**
 * Turn a zod error into one HookError whose message names every bad field and its value, e.g.
 * `registration.timeout: expected a positive number, got -5`.
 */
export function toHookError(
  code: HookErrorCode,
  error: z.core.$ZodError,
  input: unknown,
  prefix: readonly (string | number)[] = [],
): HookError {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const path = [...prefix, ...issue.path];
    const where = formatPath(path) || "(root)";
    return { path, text: `${where}: ${describeZodIssue(issue, valueAt(input, issue.path))}` };
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return new HookError(code, issues.map((i) => i.text).join("; ") + more, {
    cause: error,
    path: (issues[0]?.path ?? [...prefix]).filter(
      (k): k is string | number => typeof k === "string" || typeof k === "number",
    ),
    details: { issues: issues.map((i) => i.text) },
  });
}

/** `schema.safeParse` that answers with a HookError naming the field. */
export function validate<S extends z.core.$ZodType>(
  schema: S,
  input: unknown,
  code: HookErrorCode,
  prefix: readonly (string | number)[] = [],
): ValidationResult<z.output<S>> {
  const result = (schema as unknown as z.ZodMiniType).safeParse(input);
  if (result.success) return { success: true, data: result.data as z.output<S> };
  return { success: false, error: toHookError(code, result.error, input, prefix) };
}

/** Like {@link validate}, but throws the HookError. */
export function parseOrThrow<S extends z.core.$ZodType>(
  schema: S,
  input: unknown,
  code: HookErrorCode,
  prefix: readonly (string | number)[] = [],
): z.output<S> {
  const result = validate(schema, input, code, prefix);
  if (!result.success) throw result.error;
  return result.data;
}
