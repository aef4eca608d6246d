/** What went wrong in a CLI run: bad usage, or a configuration that cannot be used. */
export type CliErrorCode = "USAGE" | "CONFIG";

/**
 * An error the CLI reports as one line plus a hint (exit code 1), never as a stack trace
 * unless `--debug` is given.
 */
export class CliError extends Error {
  /** Always `"CliError"`. */
  override name = "CliError";
  /** `USAGE` (a bad command line) or `CONFIG` (a configuration that cannot be used). */
  readonly code: CliErrorCode;
  /** What to try next, printed under the message as `hint: …`. */
  readonly hint: string | undefined;

  constructor(code: CliErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.hint = hint;
  }
}
