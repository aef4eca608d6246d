/** Why the benchmark run failed. Stable strings: match on `code`, never on the message. */
export type BenchErrorCode =
  /** A command-line flag is unknown, repeated or has a bad value. */
  | "INVALID_OPTION"
  /** A benchmark task threw, or a baseline answered something else than the work asked. */
  | "TASK_FAILED"
  /** A child process did not start, died early or printed something unexpected. */
  | "CHILD_FAILED"
  /** A child, socket or stream did not answer in time. */
  | "TIMEOUT";

/**
 * The one error class of the benchmark harness.
 *
 * @example
 * ```ts
 * throw new BenchError("INVALID_OPTION", "--rounds: expected a whole number from 1 to 50, got \"x\"");
 * ```
 */
export class BenchError extends Error {
  override readonly name = "BenchError";
  readonly code: BenchErrorCode;

  constructor(code: BenchErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
