import * as z from "zod/mini";

const DURATION = /^([1-9][0-9]{0,5})(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The longest deadline a deferring hook may give: 366 days. */
export const MAX_DEFER_DEADLINE_MS = 366 * UNIT_MS.d;

/**
 * A deadline as a deferring hook writes it (`"90s"`, `"30m"`, `"2h"`, `"7d"`) in milliseconds,
 * or undefined when the text is not one (or is longer than {@link MAX_DEFER_DEADLINE_MS}).
 */
export function deferDeadlineMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_DEFER_DEADLINE_MS ? ms : undefined;
}

const deciderSchema = z.string().check(z.minLength(1), z.maxLength(256));

/**
 * An A3S extension of Claude Code's `defer`: who may decide the deferred call, and by when.
 * Strict: a misspelt field is an error naming it, not a routing silently lost.
 */
export const deferRoutingSchema = z.strictObject({
  deciders: z.optional(z.array(deciderSchema).check(z.maxLength(100))),
  deadline: z.optional(
    z
      .string()
      .check(
        z.refine(
          (text) => deferDeadlineMs(text) !== undefined,
          'expected a duration such as "90s", "30m", "2h" or "7d" (at most 366d)',
        ),
      ),
  ),
  onDeadline: z.optional(z.enum(["allow", "deny"])),
});

/**
 * Who may decide a deferred tool call and by when: an A3S extension of Claude Code's `defer`
 * (in a command or HTTP hook's JSON, `hookSpecificOutput.a3sRouting`), which agents that do not
 * know it ignore.
 *
 * The deadline is a duration counted from when the agent parks the call, never a clock time, so
 * a hook on another machine with a skewed clock still means what it says.
 */
export interface DeferRouting {
  /** Names allowed to decide; absent or empty means anyone who may decide at all. */
  deciders?: string[] | undefined;
  /** How long the call waits: `"90s"`, `"30m"`, `"2h"`, `"7d"` (at most 366 days). */
  deadline?: string | undefined;
  /** What the deadline decides: `"deny"` unless the hook says `"allow"`. */
  onDeadline?: "allow" | "deny" | undefined;
}

/**
 * The routing of a call several hooks deferred, each with its own: every hook's condition
 * holds at once. Deciders intersect (a hook without deciders does not narrow them), the
 * shortest deadline stands, and the deadline allows only when every hook that gave a deadline
 * or an `onDeadline` says `"allow"` (a deadline without `onDeadline` counts as `"deny"`).
 * Returns a reason instead when the deciders have no name in common: a call nobody may decide
 * is refused, never opened to everyone.
 */
export function combineRoutings(
  a: DeferRouting | undefined,
  b: DeferRouting | undefined,
): { routing: DeferRouting | undefined } | { refused: string } {
  if (a === undefined || b === undefined) return { routing: a ?? b };
  const routing: DeferRouting = {};
  const deciders = intersect(a.deciders, b.deciders);
  if (deciders !== undefined) {
    if (deciders.length === 0) {
      return {
        refused: `the hooks that deferred this call name no decider in common (${list(a.deciders)} and ${list(b.deciders)})`,
      };
    }
    routing.deciders = deciders;
  }
  const deadline = shortest(a.deadline, b.deadline);
  if (deadline !== undefined) routing.deadline = deadline;
  const onA = onDeadlineOf(a);
  const onB = onDeadlineOf(b);
  if (onA !== undefined || onB !== undefined) {
    routing.onDeadline = onA === "deny" || onB === "deny" ? "deny" : "allow";
  }
  return { routing };
}

function intersect(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  const narrowA = a !== undefined && a.length > 0;
  const narrowB = b !== undefined && b.length > 0;
  if (!narrowA) return narrowB ? [...b] : undefined;
  if (!narrowB) return [...a];
  const inB = new Set(b);
  return [...new Set(a.filter((name) => inB.has(name)))];
}

function shortest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (deferDeadlineMs(b) ?? Infinity) < (deferDeadlineMs(a) ?? Infinity) ? b : a;
}

function onDeadlineOf(routing: DeferRouting): "allow" | "deny" | undefined {
  return routing.onDeadline ?? (routing.deadline !== undefined ? "deny" : undefined);
}

function list(names: string[] | undefined): string {
  return (names ?? []).join(", ");
}
