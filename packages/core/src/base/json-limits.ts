import { HookError } from "./hook-error.js";
import { formatPath, type ValidationResult } from "./validation.js";

/**
 * How deep JSON a hook may send: objects and arrays nested in a `modified` patch, a command
 * hook's output, or a field of a wire message. Deeper data is refused (`LIMIT_EXCEEDED`, the
 * field named) before anything walks it, so no answer can exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How many values (objects, arrays and leaves) one `modified` patch or one command hook's
 * output may hold. More is refused (`LIMIT_EXCEEDED`): an in-process answer that shares one
 * object many times over would otherwise unfold into an exponential copy.
 */
export const MAX_JSON_NODES = 100_000;

/** Keys that could reach an object's prototype when a patch is applied. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);

type Path = readonly (string | number)[];

/** One container being copied, with the way back to the root (paths are built for errors only). */
interface Frame {
  readonly source: object;
  readonly target: Record<string, unknown> | unknown[];
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string | number | undefined;
}

function pathOf(frame: Frame | undefined, key: string | number | undefined, root: Path): Path {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let f = frame; f?.key !== undefined; f = f.parent) keys.push(f.key);
  return [...root, ...keys.reverse()];
}

/** What a limit's message names: the field given, or the root's field the node lies in. */
function fieldOf(frame: Frame, key: string | number, root: Path): Path {
  return root.length > 0 ? root : pathOf(frame, key, root).slice(0, 1);
}

/** The message of anything thrown, even a value whose own properties throw. */
export function errorText(error: unknown): string {
  try {
    return HookError.from(error).message;
  } catch {
    return "a value that cannot be read was thrown";
  }
}

function where(path: Path): string {
  return formatPath(path) || "(root)";
}

function describeKind(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "function") return "a function";
  if (value === undefined) return "undefined";
  if (typeof value === "object") return "an object that is not plain data";
  return `a ${typeof value}`;
}

class Refusal {
  constructor(readonly error: HookError) {}
}

/**
 * A plain-data copy of hook-supplied JSON, made without recursion and reading each property
 * once (a getter or a Proxy cannot show one value to the check and another to the merge).
 * Refuses, with a `HookError` naming the field: nesting deeper than {@link MAX_JSON_DEPTH}
 * (a cycle included), more than {@link MAX_JSON_NODES} values, a key in {@link FORBIDDEN_KEYS}
 * at any level, anything that is not JSON data (functions, symbols, class instances, non-finite
 * numbers), and any error thrown while reading. `undefined` object fields are left out, as
 * `JSON.stringify` leaves them out.
 *
 * @example
 * ```ts
 * const patch = copyJsonData(answer.modified, ["response", "modified"]);
 * if (!patch.success) return patch.error; // response.modified.__proto__: this key is not allowed
 * ```
 */
export function copyJsonData(value: unknown, root: Path = []): ValidationResult<unknown> {
  if (value === null || typeof value !== "object") {
    const leaf = checkLeaf(value, undefined, undefined, root);
    return leaf instanceof Refusal
      ? { success: false, error: leaf.error }
      : { success: true, data: value };
  }
  let frame: Frame | undefined;
  let key: string | number | undefined;
  try {
    const top = containerFor(value, undefined, undefined, root);
    if (top instanceof Refusal) return { success: false, error: top.error };
    const stack: Frame[] = [
      { source: value, target: top, depth: 1, parent: undefined, key: undefined },
    ];
    let nodes = 1;
    while (stack.length > 0) {
      frame = stack.pop()!;
      key = undefined;
      const { source, target } = frame;
      const isArray = Array.isArray(target);
      // An array's indexes are counted, not listed: a Proxy may claim any length.
      const keys: readonly string[] | undefined = isArray ? undefined : Object.keys(source);
      const count = isArray ? (source as unknown[]).length : keys!.length;
      for (let i = 0; i < count; i++) {
        key = isArray ? i : keys![i]!;
        if (typeof key === "string" && FORBIDDEN_KEYS.has(key)) {
          const path = pathOf(frame, key, root);
          return refuse("INVALID_OUTPUT", `${where(path)}: this key is not allowed`, path);
        }
        const child = (source as Record<string | number, unknown>)[key];
        if (child === undefined && !isArray) continue;
        if (++nodes > MAX_JSON_NODES) {
          const path = fieldOf(frame, key, root);
          return refuse(
            "LIMIT_EXCEEDED",
            `${where(path)}: more than ${MAX_JSON_NODES} values`,
            path,
          );
        }
        let copy: unknown = child;
        if (child !== null && typeof child === "object") {
          if (frame.depth >= MAX_JSON_DEPTH) {
            const path = fieldOf(frame, key, root);
            return refuse(
              "LIMIT_EXCEEDED",
              `${where(path)}: nested more than ${MAX_JSON_DEPTH} levels deep (or refers to itself)`,
              path,
            );
          }
          const container = containerFor(child, frame, key, root);
          if (container instanceof Refusal) return { success: false, error: container.error };
          stack.push({
            source: child,
            target: container,
            depth: frame.depth + 1,
            parent: frame,
            key,
          });
          copy = container;
        } else {
          const leaf = checkLeaf(child, frame, key, root);
          if (leaf instanceof Refusal) return { success: false, error: leaf.error };
        }
        if (isArray) (target as unknown[]).push(copy);
        else (target as Record<string, unknown>)[key as string] = copy;
      }
    }
    return { success: true, data: top };
  } catch (error) {
    const path = frame === undefined ? root : pathOf(frame, key, root);
    return refuse(
      "INVALID_OUTPUT",
      `${where(path)}: could not be read (${errorText(error)})`,
      path,
    );
  }
}

function refuse(
  code: "INVALID_OUTPUT" | "LIMIT_EXCEEDED",
  message: string,
  path: Path,
): { success: false; error: HookError } {
  return { success: false, error: new HookError(code, message, { path }) };
}

/** The refusal of a value that is not JSON data, at its path. */
function notJson(
  value: unknown,
  frame: Frame | undefined,
  key: string | number | undefined,
  root: Path,
): Refusal {
  const path = pathOf(frame, key, root);
  return new Refusal(
    new HookError(
      "INVALID_OUTPUT",
      `${where(path)}: expected JSON data, got ${describeKind(value)}`,
      {
        path,
      },
    ),
  );
}

function containerFor(
  value: object,
  frame: Frame | undefined,
  key: string | number | undefined,
  root: Path,
): Record<string, unknown> | unknown[] | Refusal {
  if (Array.isArray(value)) return [];
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? {} : notJson(value, frame, key, root);
}

function checkLeaf(
  value: unknown,
  frame: Frame | undefined,
  key: string | number | undefined,
  root: Path,
): Refusal | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number" && Number.isFinite(value)) return undefined;
  return notJson(value, frame, key, root);
}

/**
 * The depth of JSON data (`1` for `{}` or `[]`, `0` for a leaf), walked without recursion and
 * given up at `max + 1`: cheap proof that later recursive walks (a merge, `JSON.stringify`)
 * stay shallow. For data `JSON.parse` made; use {@link copyJsonData} for anything else.
 */
export function jsonDepth(value: unknown, max = MAX_JSON_DEPTH): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 1;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > max) return deepest;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * `LIMIT_EXCEEDED` naming the first field of a decoded message nested deeper than
 * {@link MAX_JSON_DEPTH}, or undefined.
 */
export function tooDeepField(message: unknown, root: Path): HookError | undefined {
  if (message === null || typeof message !== "object") return undefined;
  for (const [key, value] of Object.entries(message)) {
    if (jsonDepth(value) > MAX_JSON_DEPTH) {
      const path = [...root, key];
      return new HookError(
        "LIMIT_EXCEEDED",
        `${where(path)}: nested more than ${MAX_JSON_DEPTH} levels deep`,
        { path },
      );
    }
  }
  return undefined;
}
