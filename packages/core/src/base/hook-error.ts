/**
 * Every failure the hooks packages report has one of these codes. They are stable strings:
 * match on `error.code`, never on the message.
 */
export type HookErrorCode =
  /**
   * Options or a definition are malformed: a registration with a bad handler or a negative
   * timeout, a bad option to a constructor, an invalid settings or configuration file.
   */
  | "INVALID_CONFIG"
  /** An event name is not part of the catalogue. */
  | "UNKNOWN_EVENT"
  /** An event object does not match its schema. */
  | "INVALID_EVENT"
  /** A hook answered with something that is not a valid response in any dialect. */
  | "INVALID_OUTPUT"
  /** A `modified` patch touched a field the event does not allow, or broke the event's schema. */
  | "INVALID_MODIFICATION"
  /** A matcher pattern (regex or glob) does not compile. */
  | "INVALID_PATTERN"
  /** `maxHooksPerEvent` or `maxTotalHooks` would be exceeded. */
  | "LIMIT_EXCEEDED"
  /** A hook blocked the operation. */
  | "BLOCKED"
  /** A hook asked to retry more often than the host allows. */
  | "RETRY_EXHAUSTED"
  /** A hook did not answer within its timeout. */
  | "TIMEOUT"
  /** A hook handler threw or rejected. */
  | "HANDLER_FAILED"
  /** The caller aborted the operation. */
  | "ABORTED"
  /** A template refers to a variable that does not exist, or is malformed. */
  | "TEMPLATE_ERROR"
  /** Something that was looked up does not exist (a hook id, a session, …). */
  | "NOT_FOUND"
  /** A peer did not present valid credentials. */
  | "UNAUTHENTICATED"
  /** A peer tried to act on something that is not its own. */
  | "PERMISSION_DENIED"
  /** A peer or transport is unreachable or went away. */
  | "UNAVAILABLE"
  /**
   * A call came before what it depends on: a hook call for a client whose hook stream the
   * agent does not hold (open the HookStream first, then call again).
   */
  | "FAILED_PRECONDITION"
  /** Anything else: a bug, or a failure with no better code. */
  | "INTERNAL";

/** What a `HookError` carries besides its code and message. */
export interface HookErrorOptions {
  /** The error this one wraps. */
  cause?: unknown;
  /** The path of the offending field, e.g. `["registration", "timeout"]`. */
  path?: readonly (string | number)[];
  /** Extra structured detail (the hook id, the known template variables, …). */
  details?: Readonly<Record<string, unknown>>;
}

/**
 * The base class of every error thrown by `@a3s-lab/hooks-*`.
 *
 * @example
 * ```ts
 * try {
 *   engine.register({ event: "PreToolUse", handler: 42 as never });
 * } catch (error) {
 *   if (HookError.is(error, "INVALID_CONFIG")) console.error(error.path, error.message);
 * }
 * ```
 */
export class HookError extends Error {
  /** Always `"HookError"` (subclasses name themselves), so logs and `toJSON()` say what it is. */
  override name = "HookError";
  /** What went wrong, as a stable string to branch on (`TIMEOUT`, `INVALID_CONFIG`, …). */
  readonly code: HookErrorCode;
  /**
   * Where in the input the fault is, field by field (`["hooks", "PreToolUse", 0, "command"]`);
   * empty when the error is not about one field.
   */
  readonly path: readonly (string | number)[];
  /** Extra facts for programs (a limit, the value seen); never needed to read the message. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: HookErrorCode, message: string, options: HookErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path ?? [];
    this.details = options.details ?? {};
  }

  /** True when `value` is a HookError, optionally with the given code. Works across realms. */
  static is(value: unknown, code?: HookErrorCode): value is HookError {
    // A structural check, not instanceof: errors cross bundles (ESM + CJS copies) and realms.
    const isHookError =
      value instanceof HookError ||
      (value instanceof Error &&
        typeof (value as { code?: unknown }).code === "string" &&
        Array.isArray((value as { path?: unknown }).path));
    return isHookError && (code === undefined || (value as HookError).code === code);
  }

  /** Turn anything thrown into a HookError, keeping the original as `cause`. */
  static from(value: unknown, code: HookErrorCode = "INTERNAL"): HookError {
    if (HookError.is(value)) return value;
    if (value instanceof Error) {
      if (value.name === "AbortError")
        return new HookError("ABORTED", value.message, { cause: value });
      if (value.name === "TimeoutError")
        return new HookError("TIMEOUT", value.message, { cause: value });
      return new HookError(code, value.message, { cause: value });
    }
    return new HookError(code, typeof value === "string" ? value : describeValue(value), {
      cause: value,
    });
  }

  /** A plain object for logs and the wire. */
  toJSON(): { name: string; code: HookErrorCode; message: string; path: (string | number)[] } {
    return { name: this.name, code: this.code, message: this.message, path: [...this.path] };
  }
}

/** A short, safe preview of any value for error messages: never a megabyte of input. */
export function describeValue(value: unknown, max = 60): string {
  let text: string;
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol") return value.toString();
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
