import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { type ValidationResult, validate } from "../base/validation.js";

/**
 * How the answers of several hooks to one answer field combine, in execution order:
 * `replace` (a later hook's value wins, as any modification does) or `union` (array values add
 * up: duplicates dropped, capped at `maxItems`).
 */
export type AnswerMerge = "replace" | "union";

/** One answer field of an event: how hooks' answers to it combine. See {@link AnswerFieldInit}. */
export interface AnswerField {
  /** How several hooks' answers combine: `replace` (a later hook's value wins) or `union` (array values add up). */
  readonly merge: AnswerMerge;
  /** For `union`: the most items the merged value keeps. */
  readonly maxItems: number;
  /** A command hook may answer this field with plain (non-JSON) stdout: its last non-empty line. */
  readonly stdout: boolean;
}

/**
 * An answer field of an event, as `defineEvent`'s `answers` option takes it. The field is one of
 * the event's own (optional) fields; a hook answers it with `modify({ field })`, and a command,
 * http, prompt, agent or mcp_tool hook with Claude Code's `hookSpecificOutput.field`. The value
 * is checked by the field's schema (a bad one fails that hook, with an error naming the field)
 * and the merged answer is on the result's `event`.
 */
export interface AnswerFieldInit {
  /** `replace` (default) or `union` (the field must be an array). */
  merge?: AnswerMerge;
  /** For `union`: the most items the merged value keeps (default 100, at most 10 000); later ones are dropped with a warning. */
  maxItems?: number;
  /**
   * True when a command hook answers this field by printing it (Claude Code's WorktreeCreate
   * path): plain, non-JSON stdout is the value, its last non-empty line. At most one per event.
   */
  stdout?: boolean;
}

/** Items a `union` answer keeps unless its definition says otherwise. */
export const DEFAULT_MAX_ANSWER_ITEMS = 100;
const MAX_ANSWER_ITEMS = 10_000;

const NONE: Readonly<Record<string, AnswerField>> = Object.freeze(Object.create(null));

function invalid(path: readonly (string | number)[], message: string): HookError {
  return new HookError("INVALID_CONFIG", `${path.join(".")}: ${message}`, { path: [...path] });
}

/** True when the field's schema is an array, under any optional/nullable wrappers. */
function isArraySchema(schema: z.core.$ZodType | undefined): boolean {
  let def = schema?._zod.def as { type?: string; innerType?: z.core.$ZodType } | undefined;
  while (def && (def.type === "optional" || def.type === "nullable")) {
    def = def.innerType?._zod.def as typeof def;
  }
  return def?.type === "array";
}

/**
 * Check a definition's `answers` option against the event's own fields; frozen, with defaults.
 * Throws `HookError("INVALID_CONFIG")` naming the bad part.
 */
export function buildAnswerFields(
  init: unknown,
  shape: Readonly<Record<string, z.core.$ZodType>>,
  reserved: ReadonlySet<string>,
): Readonly<Record<string, AnswerField>> {
  if (init === undefined) return NONE;
  if (init === null || typeof init !== "object" || Array.isArray(init)) {
    throw invalid(
      ["answers"],
      "expected an object of answer fields, { field: { merge, maxItems, stdout } }",
    );
  }
  const out: Record<string, AnswerField> = Object.create(null);
  let stdoutField: string | undefined;
  for (const [name, rule] of Object.entries(init)) {
    const at = ["answers", name];
    if (!Object.hasOwn(shape, name) || reserved.has(name)) {
      throw invalid(at, "expected one of the event's own top-level fields");
    }
    if (rule === null || typeof rule !== "object" || Array.isArray(rule)) {
      throw invalid(at, "expected { merge, maxItems, stdout }");
    }
    const {
      merge = "replace",
      maxItems = DEFAULT_MAX_ANSWER_ITEMS,
      stdout = false,
    } = rule as AnswerFieldInit;
    if (merge !== "replace" && merge !== "union") {
      throw invalid(
        [...at, "merge"],
        `expected "replace" or "union", got ${JSON.stringify(merge)}`,
      );
    }
    if (merge === "union" && !isArraySchema(shape[name])) {
      throw invalid([...at, "merge"], "union needs a field whose schema is an array");
    }
    if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > MAX_ANSWER_ITEMS) {
      throw invalid(
        [...at, "maxItems"],
        `expected a whole number from 1 to ${MAX_ANSWER_ITEMS}, got ${JSON.stringify(maxItems)}`,
      );
    }
    if (typeof stdout !== "boolean") throw invalid([...at, "stdout"], "expected a boolean");
    if (stdout && stdoutField !== undefined) {
      throw invalid([...at, "stdout"], `only one field per event, and ${stdoutField} is it`);
    }
    if (stdout) stdoutField = name;
    out[name] = Object.freeze({ merge, maxItems, stdout });
  }
  return Object.freeze(out);
}

/** True when two frozen answer tables say the same. */
export function sameAnswerFields(
  a: Readonly<Record<string, AnswerField>>,
  b: Readonly<Record<string, AnswerField>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => {
      const x = a[k]!;
      const y = b[k];
      return (
        y !== undefined && x.merge === y.merge && x.maxItems === y.maxItems && x.stdout === y.stdout
      );
    })
  );
}

/** What `readAnswerFields` needs of an event's spec. */
interface AnswerSource {
  readonly answers: Readonly<Record<string, AnswerField>>;
  readonly schema: z.core.$ZodType;
}

function fieldSchema(spec: AnswerSource, name: string): z.core.$ZodType | undefined {
  return (spec.schema._zod.def as { shape?: Record<string, z.core.$ZodType> }).shape?.[name];
}

/**
 * The answer fields in Claude Code's `hookSpecificOutput` of one hook, checked by the event's
 * schema, as a patch of the event: `{ watchPaths: [...] }`. Undefined when there are none; an
 * `INVALID_OUTPUT` error naming `hookSpecificOutput.<field>` when one is bad.
 */
export function readAnswerFields(
  spec: AnswerSource,
  output: Readonly<Record<string, unknown>>,
): ValidationResult<Record<string, unknown> | undefined> {
  let patch: Record<string, unknown> | undefined;
  for (const name in spec.answers) {
    if (!Object.hasOwn(output, name) || output[name] === undefined) continue;
    const schema = fieldSchema(spec, name);
    if (schema === undefined) continue;
    const checked = validate(schema, output[name], "INVALID_OUTPUT", ["hookSpecificOutput", name]);
    if (!checked.success) return checked;
    (patch ??= {})[name] = checked.data;
  }
  return { success: true, data: patch };
}

/** The field a command hook answers with plain stdout, or undefined. */
export function stdoutAnswerField(spec: AnswerSource | undefined): string | undefined {
  if (spec === undefined) return undefined;
  for (const name in spec.answers) if (spec.answers[name]!.stdout) return name;
  return undefined;
}

/**
 * `union` merge of one field: what the event had, then what the hook answered, duplicates
 * (by JSON text) dropped, at most `max` items. Returns the merged list and how many were dropped.
 */
export function unionOf(
  before: unknown,
  answer: unknown,
  max: number,
): { value: unknown[]; dropped: number } {
  const seen = new Set<string>();
  const value: unknown[] = [];
  let dropped = 0;
  for (const list of [before, answer]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const key = typeof item === "string" ? `s${item}` : `j${JSON.stringify(item)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (value.length < max) value.push(item);
      else dropped++;
    }
  }
  return { value, dropped };
}

/** True for an absolute path on POSIX (`/x`) or Windows (`C:\x`, `\\server\share`). */
function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** The longest path a watch path may be, in characters (Linux's PATH_MAX). */
export const MAX_WATCH_PATH_CHARS = 4096;
/** The most watch paths one answer, and the merged answer of one firing, may hold. */
export const MAX_WATCH_PATHS = DEFAULT_MAX_ANSWER_ITEMS;

/**
 * Claude Code's `watchPaths`: absolute paths the host should watch for FileChanged, at most
 * {@link MAX_WATCH_PATHS} of them, each at most {@link MAX_WATCH_PATH_CHARS} characters, no NUL.
 */
export const watchPathsSchema = z
  .array(
    z.string().check(
      z.minLength(1),
      z.maxLength(MAX_WATCH_PATH_CHARS),
      z.refine((p) => !p.includes("\0"), "expected a path without NUL characters"),
      z.refine(isAbsolutePath, "expected an absolute path"),
    ),
  )
  .check(z.maxLength(MAX_WATCH_PATHS));
