import type { Unsubscribe } from "../base/emitter.js";
import { describeValue, HookError } from "../base/hook-error.js";
import {
  type AuditEvent,
  type AuditEventType,
  type AuditSource,
  auditTypeFilter,
  onAudit,
} from "./audit.js";
import { checkOptions, reportListenerError } from "./audit-trail.js";

/** The longest line {@link formatAuditRecord} returns, in UTF-16 code units. */
const MAX_LINE = 500;

/**
 * What must not reach a log line as is: C0 and C1 controls (newlines, escape sequences that
 * recolour or rewrite a terminal), line and paragraph separators, the bidirectional
 * overrides and isolates that make text read differently from what it holds, and lone
 * surrogates (with the `u` flag, `\p{Cs}` matches only unpaired ones).
 */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cs}]/gu;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** One field of a record as safe text, cut early so a 10 MB reason costs no more than a short one. */
function text(value: unknown): string {
  let raw: string;
  if (typeof value === "string") raw = value;
  else if (typeof value === "number" || typeof value === "boolean") raw = String(value);
  else raw = describeValue(value);
  if (raw.length > MAX_LINE) raw = `${raw.slice(0, MAX_LINE)}…`;
  return raw.replace(UNSAFE, escapeChar);
}

function cut(line: string): string {
  if (line.length <= MAX_LINE) return line;
  let end = MAX_LINE - 1;
  // Never split a surrogate pair: half of one is not a character.
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

function detail(record: Record<string, unknown>): string {
  switch (record.type as AuditEventType) {
    case "registered": {
      const parts = [];
      if (record.name !== undefined) parts.push(`name ${text(record.name)}`);
      if (record.source !== undefined) parts.push(`from ${text(record.source)}`);
      return parts.join(", ");
    }
    case "unregistered":
      return text(record.reason);
    case "started":
      return `event ${text(record.eventId)}`;
    case "completed":
      return `${text(record.action)} in ${text(record.duration)} ms`;
    case "failed": {
      const message = record.message === "" ? "" : `: ${text(record.message)}`;
      return `${text(record.code)} after ${text(record.duration)} ms${message}`;
    }
    case "timed_out":
      return `no answer within ${text(record.timeout)} ms`;
    case "blocked":
      return text(record.reason);
    case "modified": {
      const paths = Array.isArray(record.paths) ? record.paths.map(text).join(", ") : "";
      const conflicts =
        Array.isArray(record.conflicts) && record.conflicts.length > 0
          ? ` (overwrote another hook's ${record.conflicts.map(text).join(", ")})`
          : "";
      return `${paths}${conflicts}`;
    }
    case "fired": {
      const hooks = Array.isArray(record.hookIds) ? record.hookIds.length : 0;
      const reason = record.reason === undefined ? "" : `: ${text(record.reason)}`;
      return `${text(record.action)} after ${hooks} hook(s) in ${text(record.duration)} ms${reason}`;
    }
    case "warning":
      return text(record.message);
    case "approval": {
      const parts = [`${text(record.step)} ${text(record.tool)} ${text(record.approvalId)}`];
      if (record.decidedBy !== undefined) {
        parts.push(`${text(record.decision)} by ${text(record.decidedBy)}`);
      }
      if (record.edited === true) parts.push("input edited");
      if (record.outcome !== undefined) parts.push(`call ${text(record.outcome)}`);
      if (record.reason !== undefined) parts.push(text(record.reason));
      return parts.join(", ");
    }
    default:
      // A record type newer than this package: its message or reason, if it has one.
      return record.message !== undefined
        ? text(record.message)
        : record.reason !== undefined
          ? text(record.reason)
          : "";
  }
}

/**
 * One readable line for an audit record: its type, the event, the hook, then what happened.
 * Whatever the record holds, the line is one line (newlines and control characters come out
 * escaped, as `\n` or `\u001b`) and at most 500 characters (longer ones end with `…`), so a
 * hook's hostile reason cannot forge or flood log lines.
 *
 * @example
 * ```ts
 * formatAuditRecord({ type: "blocked", time: 0, hookId: "perm-1", event: "PreToolUse", eventId: "e1", reason: "rm is not allowed" });
 * // → "blocked PreToolUse (hook perm-1): rm is not allowed"
 * ```
 */
export function formatAuditRecord(record: AuditEvent): string {
  if (typeof record !== "object" || record === null || typeof record.type !== "string") {
    throw new HookError(
      "INVALID_EVENT",
      `record: expected an audit record (an object with a string type), got ${describeValue(record)}`,
      { path: ["record"] },
    );
  }
  const fields = record as unknown as Record<string, unknown>;
  let line = text(record.type);
  if (fields.event !== undefined) line += ` ${text(fields.event)}`;
  if (fields.hookId !== undefined) line += ` (hook ${text(fields.hookId)})`;
  const about = detail(fields);
  if (about !== "") line += `: ${about}`;
  return cut(line);
}

/** The console methods {@link logAudit} writes with. */
export type AuditConsole = Pick<Console, "info" | "warn" | "error" | "debug">;

/** {@link logAudit}'s options. */
export interface LogAuditOptions {
  /** Where the lines go. Default: the global `console`. */
  console?: AuditConsole;
  /** Log only records of these types. Default: every type the source reports. */
  types?: readonly AuditEventType[];
}

const SEVERITY: Readonly<Record<AuditEventType, keyof AuditConsole>> = {
  failed: "error",
  timed_out: "error",
  blocked: "warn",
  responded: "info",
  warning: "warn",
  started: "debug",
  completed: "debug",
  registered: "info",
  unregistered: "info",
  modified: "info",
  fired: "debug",
  approval: "info",
};

/**
 * Write each audit record of an engine or a client to the console, one
 * {@link formatAuditRecord} line at a fitting severity: failures and timeouts as errors,
 * blocks and warnings as warnings, every run (`started`, `completed`) as debug, the rest as
 * info. Returns the way to stop (also `using`-disposable). A console that throws is reported,
 * never passed on to the source.
 *
 * @example
 * ```ts
 * client.setHookAuditLevel("info");
 * const stop = logAudit(client);
 * // console.warn("blocked PreToolUse (hook perm-1): rm is not allowed") when that hook blocks
 * stop();
 * ```
 */
export function logAudit(source: AuditSource, options?: LogAuditOptions): Unsubscribe {
  checkOptions(options, ["console", "types"]);
  const target = options?.console === undefined ? globalThis.console : options.console;
  if (typeof target !== "object" || target === null) {
    throw new HookError(
      "INVALID_CONFIG",
      `options.console: expected an object with info, warn, error and debug methods, got ${describeValue(target)}`,
      { path: ["options", "console"] },
    );
  }
  for (const method of ["info", "warn", "error", "debug"] as const) {
    if (typeof target[method] !== "function") {
      throw new HookError(
        "INVALID_CONFIG",
        `options.console.${method}: expected a function, got ${describeValue(target[method])}`,
        { path: ["options", "console", method] },
      );
    }
  }
  const types = auditTypeFilter(options?.types);
  let listening = true;
  const unsubscribe = onAudit(source, (record) => {
    if (types !== undefined && !types.has(record.type)) return;
    try {
      const line = formatAuditRecord(record);
      target[SEVERITY[record.type] ?? "info"](line);
    } catch (error) {
      reportListenerError(error);
    }
  });
  const stop = () => {
    if (!listening) return;
    listening = false;
    unsubscribe();
  };
  return Object.assign(stop, { [Symbol.dispose]: stop });
}
