import { hookEventNames } from "./event-spec.js";

/**
 * ` (did you mean "PreToolUse"?)` for a near miss of an event name (case, `_`, `-` and spaces
 * ignored; at most two edits away), or "". Appended to every "unknown event name" message.
 */
export function suggestEvent(name: string): string {
  const flat = (s: string) => s.toLowerCase().replaceAll(/[_\-\s]/g, "");
  const target = flat(name);
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of hookEventNames) {
    const d = distance(target, flat(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best ? ` (did you mean "${best}"?)` : "";
}

/** Levenshtein distance, for short names only. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length]!;
}
