import { claudeCodeEventNames } from "./claude-code-names.js";
import { hookEventNames } from "./event-spec.js";

const flat = (s: string) => s.toLowerCase().replaceAll(/[_\-\s]/g, "");

let ready: Map<string, string> | undefined;

/**
 * The one message for an event name the catalogue does not hold: `unknown event name "X"`,
 * then how to opt in when Claude Code defines it (a ready definition in `claudeCodeEvents`),
 * else the nearest known name, if any.
 */
export function unknownEventMessage(name: unknown): string {
  const quoted = JSON.stringify(name) ?? String(name);
  if (typeof name !== "string") return `unknown event name ${quoted}`;
  ready ??= new Map(claudeCodeEventNames.map((n) => [flat(n), n]));
  const claude = ready.get(flat(name));
  if (claude !== undefined) {
    return `unknown event name ${quoted}: Claude Code's ${claude} has a ready definition this host has not opted in to (the host adds it with defineEvent(claudeCodeEvents.${claude}) from @a3s-lab/hooks-core)`;
  }
  return `unknown event name ${quoted}${suggestEvent(name)}`;
}

/**
 * ` (did you mean "PreToolUse"?)` for a near miss of an event name (case, `_`, `-` and spaces
 * ignored; at most two edits away), or "". Appended to every "unknown event name" message.
 */
export function suggestEvent(name: string): string {
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
