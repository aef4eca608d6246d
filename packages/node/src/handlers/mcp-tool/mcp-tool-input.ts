/**
 * `${path}` placeholders in an `mcp_tool` hook's `input`: `path` is a dot-separated walk into
 * the hook input (`tool_input.file_path`, `tool_input.edits.0.old_string`).
 */

const PLACEHOLDER = /\$\{([^{}]*)\}/g;
const PATH = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** Deeper `input` objects are refused at load: nothing a tool takes needs more. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What is wrong with the placeholders of an `input` object, one message per fault, each naming
 * its JSON path (`input.query`): a `${…}` whose inside is not a dot path, or nesting deeper than
 * `MAX_INPUT_DEPTH`.
 */
export function inputPlaceholderProblems(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (depth > MAX_INPUT_DEPTH) {
      problems.push(`${path}: nested deeper than ${MAX_INPUT_DEPTH} levels`);
      return;
    }
    if (typeof value === "string") {
      for (const match of value.matchAll(PLACEHOLDER)) {
        if (!PATH.test(match[1]!)) {
          problems.push(
            `${path}: ${JSON.stringify(match[0])} is not a placeholder; expected \${field} or \${field.sub.field} (letters, digits, _ and - between the dots)`,
          );
        }
      }
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, `${path}[${i}]`, depth + 1);
    } else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, `${path}.${k}`, depth + 1);
    }
  };
  visit(input, "input", 0);
  return problems;
}

/** The value at a dot path of the hook input; only own properties, so `__proto__` finds nothing. */
function lookup(root: unknown, path: string): unknown {
  let current = root;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    if (Array.isArray(current) && !/^\d+$/.test(key)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Strings as they are, other values as JSON, missing fields as the empty string. */
function asText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

/**
 * The tool arguments for one firing: every `${path}` in a string value (at any depth) replaced
 * by that field of the hook input. Replacement happens once: a substituted value that itself
 * contains `${…}` stays as it is. Keys and non-string values are copied unchanged.
 */
export function fillMcpToolInput(
  input: Record<string, unknown> | undefined,
  hookInput: Record<string, unknown>,
): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value.replace(PLACEHOLDER, (whole, path: string) =>
        PATH.test(path) ? asText(lookup(hookInput, path)) : whole,
      );
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        // defineProperty: a key named __proto__ stays a plain key.
        Object.defineProperty(out, k, {
          value: fill(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  return (fill(input ?? {}) as Record<string, unknown>) ?? {};
}
