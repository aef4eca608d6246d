import { HookError } from "@a3s-lab/hooks-core";
import { WorkspacePathError } from "@a3s-lab/hooks-node/workspace";

/**
 * Every failure the demo agent reports has one of these codes. Match on `code`, never on the
 * message.
 */
export type AgentErrorCode =
  /** A tool's input (or a CLI flag, or a request) does not match its schema. */
  | "INVALID_INPUT"
  /** A path points outside the session's working directory (`..`, absolute, or a symlink). */
  | "OUTSIDE_WORKSPACE"
  /** A file, session, skill or tool does not exist. */
  | "NOT_FOUND"
  /** A tool ran and failed (non-zero exit, I/O error, …). */
  | "TOOL_FAILED"
  /** A tool or command ran past its time limit and was killed. */
  | "TIMEOUT"
  /** A hook (or the permission policy) refused the operation. */
  | "BLOCKED"
  /** The model provider failed or answered something unusable. */
  | "MODEL_ERROR"
  /** The operation was cancelled. */
  | "ABORTED"
  /** Anything else. */
  | "INTERNAL";

export interface AgentErrorOptions {
  cause?: unknown;
  /** The offending field, e.g. `["args", "file_path"]`. */
  path?: readonly (string | number)[];
}

/**
 * The demo agent's one error class.
 *
 * @example
 * ```ts
 * try {
 *   await readTool.run({ file_path: "../../etc/passwd" }, ctx);
 * } catch (error) {
 *   if (AgentError.is(error, "OUTSIDE_WORKSPACE")) console.error(error.message);
 * }
 * ```
 */
export class AgentError extends Error {
  override name = "AgentError";
  readonly code: AgentErrorCode;
  readonly path: readonly (string | number)[];

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path ?? [];
  }

  /** True when `value` is an AgentError, optionally with the given code. */
  static is(value: unknown, code?: AgentErrorCode): value is AgentError {
    return value instanceof AgentError && (code === undefined || value.code === code);
  }

  /** Turn anything thrown into an AgentError; hook errors keep their meaning. */
  static from(value: unknown, code: AgentErrorCode = "INTERNAL"): AgentError {
    if (value instanceof AgentError) return value;
    if (value instanceof WorkspacePathError) {
      return new AgentError(value.reason, value.message, { cause: value, path: value.path });
    }
    if (HookError.is(value)) {
      const mapped: AgentErrorCode =
        value.code === "BLOCKED"
          ? "BLOCKED"
          : value.code === "ABORTED"
            ? "ABORTED"
            : value.code === "TIMEOUT"
              ? "TIMEOUT"
              : code;
      return new AgentError(mapped, value.message, { cause: value, path: value.path });
    }
    if (value instanceof Error) {
      if (value.name === "AbortError")
        return new AgentError("ABORTED", value.message, { cause: value });
      const errno = (value as NodeJS.ErrnoException).code;
      if (errno === "ENOENT") return new AgentError("NOT_FOUND", value.message, { cause: value });
      return new AgentError(code, value.message, { cause: value });
    }
    return new AgentError(code, String(value), { cause: value });
  }

  toJSON(): { name: string; code: AgentErrorCode; message: string; path: (string | number)[] } {
    return { name: this.name, code: this.code, message: this.message, path: [...this.path] };
  }
}
