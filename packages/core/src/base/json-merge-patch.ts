/** JSON merge patch (RFC 7386), immutable: the target is never changed; untouched branches are shared. */

import { FORBIDDEN_KEYS } from "./json-limits.js";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment of "__proto__" would change the prototype; keys are data here.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Apply `patch` to `target` and return the result. `null` in the patch deletes a field. */
export function applyMergePatch<T>(target: T, patch: unknown): T {
  if (!isPlainObject(patch)) return patch as T;
  const base: Record<string, unknown> = isPlainObject(target) ? target : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) define(out, key, base[key]);
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete out[key];
    else define(out, key, applyMergePatch(out[key], value));
  }
  return out as T;
}

/**
 * The leaf paths a patch writes: `{ args: { command: "x", env: { A: null } } }` →
 * `[["args","command"], ["args","env","A"]]`. An empty object at the root writes nothing, but
 * a nested one is a write: it turns a non-object value into `{}` (RFC 7386). Walked without
 * recursion, in document order.
 */
export function patchPaths(patch: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  const stack: [unknown, string[]][] = [[patch, prefix]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (!isPlainObject(value)) out.push(path);
    else if (path.length > 0 && Object.keys(value).length === 0) out.push(path);
    else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([value[keys[i]!], [...path, keys[i]!]]);
    }
  }
  return out;
}

/** The first key in a patch that could reach an object's prototype, if any; walked without recursion. */
export function findForbiddenKey(patch: unknown, prefix: string[] = []): string[] | undefined {
  const stack: [unknown, string[]][] = [[patch, prefix]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (!isPlainObject(value)) continue;
    const keys = Object.keys(value);
    for (const key of keys) if (FORBIDDEN_KEYS.has(key)) return [...path, key];
    for (let i = keys.length - 1; i >= 0; i--) stack.push([value[keys[i]!], [...path, keys[i]!]]);
  }
  return undefined;
}

/** The value at a path, or undefined. */
export function getPath(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}
