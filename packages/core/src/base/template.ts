import { HookError } from "./hook-error.js";

/** Where a placeholder sits, so an escaper can quote for that spot (inside quotes or not). */
export interface PlaceholderContext {
  /** The variable path as written: `tool_args.file_path`. */
  name: string;
  /** The template text before the placeholder. */
  prefix: string;
}

/** Turns a value's text into what goes in the output (shell quoting, HTML escaping, …). */
export type Escaper = (value: string, context: PlaceholderContext) => string;

/** A `{{variable}}` template parsed once, rendered many times. */
export interface CompiledTemplate {
  readonly source: string;
  /** The variable paths the template uses, in order. */
  readonly variables: readonly string[];
  render(vars: Readonly<Record<string, unknown>>, escaper?: Escaper): string;
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const PATH = /^[A-Za-z_][\w-]*(?:\.[\w-]+)*$/;

function stringify(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value);
}

function lookup(vars: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let cur: unknown = vars;
  for (const key of path) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * Parse a `{{name}}` / `{{a.b.c}}` template once. Throws `TEMPLATE_ERROR` for a malformed
 * placeholder. Values are stringified (objects as JSON, missing ones as ""), then escaped.
 */
export function compileTemplate(source: string): CompiledTemplate {
  const parts: (string | { path: string[]; name: string; prefix: string })[] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (!PATH.test(name)) {
      throw new HookError(
        "TEMPLATE_ERROR",
        `template: malformed placeholder ${JSON.stringify(match[0])} at offset ${match.index}`,
        {
          details: { template: source },
        },
      );
    }
    parts.push(source.slice(last, match.index));
    parts.push({ path: name.split("."), name, prefix: source.slice(0, match.index) });
    last = match.index! + match[0].length;
  }
  parts.push(source.slice(last));
  const placeholders = parts.filter(
    (p): p is Exclude<(typeof parts)[number], string> => typeof p !== "string",
  );
  return {
    source,
    variables: placeholders.map((p) => p.name),
    render(vars, escaper = (value) => value) {
      let out = "";
      for (const part of parts) {
        if (typeof part === "string") {
          out += part;
          continue;
        }
        const root = part.path[0]!;
        if (!Object.hasOwn(vars, root)) {
          const known = Object.keys(vars).sort();
          throw new HookError(
            "TEMPLATE_ERROR",
            `template: unknown variable {{${part.name}}}; known variables: ${known.join(", ")}`,
            {
              details: { variable: part.name, known },
            },
          );
        }
        out += escaper(stringify(lookup(vars, part.path)), {
          name: part.name,
          prefix: part.prefix,
        });
      }
      return out;
    },
  };
}

/** Render a template in one go. See {@link compileTemplate}. */
export function renderTemplate(
  source: string,
  vars: Readonly<Record<string, unknown>>,
  escaper?: Escaper,
): string {
  return compileTemplate(source).render(vars, escaper);
}
