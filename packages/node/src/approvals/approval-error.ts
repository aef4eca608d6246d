import { HookError, type HookErrorCode } from "@a3s-lab/hooks-core";

/**
 * Why an approval store refused a call:
 * - `INVALID_INPUT`: a malformed id, a missing or oversized field (the error's `path` names it);
 * - `NOT_FOUND`: no approval has that id;
 * - `NOT_ALLOWED`: the routing names who may decide, and this decider is not one of them;
 * - `ALREADY_DECIDED`: someone decided first (or the deadline did); the first decision stands;
 * - `NOT_DECIDED`: a resume was claimed before any decision (or completed before any claim);
 * - `ALREADY_RESUMED`: the approval was resumed before; a call never runs twice;
 * - `STORE_BUSY`: another live process has the embedded store open (share one through PostgreSQL).
 */
export type ApprovalErrorReason =
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "NOT_ALLOWED"
  | "ALREADY_DECIDED"
  | "NOT_DECIDED"
  | "ALREADY_RESUMED"
  | "STORE_BUSY";

const CODES: Record<ApprovalErrorReason, HookErrorCode> = {
  INVALID_INPUT: "INVALID_CONFIG",
  NOT_FOUND: "NOT_FOUND",
  NOT_ALLOWED: "PERMISSION_DENIED",
  ALREADY_DECIDED: "FAILED_PRECONDITION",
  NOT_DECIDED: "FAILED_PRECONDITION",
  ALREADY_RESUMED: "FAILED_PRECONDITION",
  STORE_BUSY: "UNAVAILABLE",
};

/**
 * An approval store refused a call. `reason` says why; `code` is the nearest hook error code for
 * callers that only know `HookError`; `path` names the offending field for `INVALID_INPUT`.
 */
export class ApprovalError extends HookError {
  override name = "ApprovalError";
  /** Why the call was refused. */
  readonly reason: ApprovalErrorReason;

  constructor(
    reason: ApprovalErrorReason,
    message: string,
    options: { path?: readonly (string | number)[]; details?: Record<string, unknown> } = {},
  ) {
    super(CODES[reason], message, options);
    this.reason = reason;
  }

  /** True when `value` is an ApprovalError, optionally with the given reason. */
  static isReason(value: unknown, reason?: ApprovalErrorReason): value is ApprovalError {
    return value instanceof ApprovalError && (reason === undefined || value.reason === reason);
  }
}
