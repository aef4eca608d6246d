import { HookError, type HookErrorCode } from "@a3s-lab/hooks-core";

/** The longest path a workspace tool accepts; anything longer is hostile or a mistake. */
export const MAX_PATH_LENGTH = 4096;

/**
 * Why a path was refused:
 * - `OUTSIDE_WORKSPACE`: it is or leads outside the root (`..`, an absolute path elsewhere, a
 *   symlink out, a folder swapped or moved out while it was being opened);
 * - `INVALID_INPUT`: not a usable path, or not the kind asked for (a folder where a file is
 *   wanted, a FIFO, a socket, a device, too many symlinks);
 * - `NOT_FOUND`: it does not exist;
 * - `TOOL_FAILED`: the system refused it for another reason (permissions, a name too long).
 */
export type WorkspacePathReason =
  | "OUTSIDE_WORKSPACE"
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "TOOL_FAILED";

const CODES: Record<WorkspacePathReason, HookErrorCode> = {
  OUTSIDE_WORKSPACE: "PERMISSION_DENIED",
  INVALID_INPUT: "INVALID_EVENT",
  NOT_FOUND: "NOT_FOUND",
  TOOL_FAILED: "INTERNAL",
};

/**
 * A path a tool was given, refused by {@link WorkspaceRoot}. The message names the field and the
 * path (`args.file_path: "../x" is outside the working directory; …`); `reason` says why, in
 * terms a tool can report, and `code` is the nearest hook error code, for callers that only
 * know `HookError`. `details.errno` holds the system's error code when there was one.
 */
export class WorkspacePathError extends HookError {
  override name = "WorkspacePathError";
  /** Why the path was refused. */
  readonly reason: WorkspacePathReason;

  constructor(
    reason: WorkspacePathReason,
    message: string,
    options: { path: readonly (string | number)[]; cause?: unknown; errno?: string },
  ) {
    super(CODES[reason], message, {
      path: options.path,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.errno === undefined ? {} : { details: { errno: options.errno } }),
    });
    this.reason = reason;
  }

  /** True when `value` is a WorkspacePathError, optionally with the given reason. */
  static isReason(value: unknown, reason?: WorkspacePathReason): value is WorkspacePathError {
    return value instanceof WorkspacePathError && (reason === undefined || value.reason === reason);
  }
}

/**
 * Check that a tool's path argument is a usable path: a non-empty string, without NUL bytes, at
 * most {@link MAX_PATH_LENGTH} characters. Throws `INVALID_INPUT` naming `field`.
 */
export function checkPathInput(
  input: unknown,
  field: readonly (string | number)[],
): asserts input is string {
  const where = field.join(".");
  const invalid = (why: string) =>
    new WorkspacePathError("INVALID_INPUT", `${where}: ${why}`, { path: field });
  if (typeof input !== "string" || input.length === 0) throw invalid("expected a non-empty path");
  if (input.includes("\0")) throw invalid("a path may not contain NUL bytes");
  if (input.length > MAX_PATH_LENGTH) {
    throw invalid(`path is ${input.length} characters, the limit is ${MAX_PATH_LENGTH}`);
  }
}
