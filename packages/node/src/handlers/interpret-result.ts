import {
  CONTINUE,
  eventSpecs,
  HookError,
  type HookEvent,
  type HookResponse,
  safeNormalizeHookOutput,
} from "@a3s-lab/hooks-core";
import { clipText, specOf, stdoutAnswerField } from "@a3s-lab/hooks-core/internal";

/** How a process run ended: what a command hook's process left, and what an MCP tool's answer is read as. */
export interface SpawnResult {
  pid: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Bytes the process wrote, kept or not. */
  stdoutBytes: number;
  stderrBytes: number;
  truncated: { stdout: boolean; stderr: boolean };
  timedOut: boolean;
  aborted: boolean;
  abortReason?: unknown;
  /** The process could not be started (ENOENT, EACCES, E2BIG, EMFILE, EAGAIN, ENOMEM, …). */
  error?: NodeJS.ErrnoException;
  /** Milliseconds from spawn to the end. */
  duration: number;
}

/** Events whose plain-text stdout becomes additional context (as in Claude Code). */
const TEXT_CONTEXT_EVENTS = new Set(["UserPromptSubmit", "SessionStart"]);

/** The first non-empty line of a text, clipped: what a one-line failure message shows. */
export function firstLine(text: string, max = 300): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** `1 MiB` for a whole number of MiB, else bytes. */
function size(bytes: number): string {
  return bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : `${bytes} byte`;
}

const EXIT_HINTS: Record<number, string> = {
  126: "not executable",
  127: "command not found",
};

const SPAWN_HINTS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied; is it executable?",
  E2BIG: "the command line or environment is too large (a template value may be huge)",
  ENOTDIR: "a path component is not a directory",
  EMFILE: "this process has run out of file descriptors",
  ENFILE: "the system has run out of file descriptors",
  EAGAIN: "the system cannot start another process now",
  ENOMEM: "out of memory",
};

/**
 * Turn a finished process into the hook's answer (Claude Code's exit-code protocol), or a
 * HookError saying why it failed:
 *
 * - exit 2: block, with stderr (trimmed) as the reason; JSON on stdout cannot undo it
 * - exit 0: JSON on stdout (any dialect) is normalised; other text is the event's stdout answer
 *   field where it has one (WorktreeCreate's `worktreePath`: the last non-empty line), additional
 *   context for UserPromptSubmit and SessionStart, and ignored elsewhere
 * - exit 0 with stdout over the cap, on an event that can block: block, unless what was kept is
 *   plain text (does not start with `{`). An answer that cannot be read whole may be a block,
 *   and its size may be the attacker's (a hook that quotes the tool input), so it never becomes
 *   a continue. On other events it is an `INVALID_OUTPUT` failure.
 * - anything else, a signal, a spawn failure, invalid JSON: a HookError (the hook failed)
 */
export function interpretResult(
  result: SpawnResult,
  event: HookEvent,
  limits: { timeout: number; maxOutputBytes: number },
): HookResponse | HookError {
  const stderrLine = firstLine(result.stderr);
  const details = {
    exitCode: result.exitCode,
    signal: result.signal,
    stderr: stderrLine,
  };
  if (result.error) {
    const code = result.error.code ?? "UNKNOWN";
    const hint = SPAWN_HINTS[code];
    return new HookError(
      "HANDLER_FAILED",
      `could not start the command: ${code}${hint ? ` (${hint})` : ""}`,
      { cause: result.error, details: { ...details, errno: code } },
    );
  }
  if (result.timedOut) {
    return new HookError(
      "TIMEOUT",
      `no answer within ${limits.timeout / 1000} s; the process group was killed`,
      { details: { ...details, timeout: limits.timeout } },
    );
  }
  if (result.aborted) {
    return HookError.is(result.abortReason)
      ? result.abortReason
      : new HookError("ABORTED", "the hook was cancelled; the process group was killed", {
          cause: result.abortReason,
          details,
        });
  }
  if (result.exitCode === 2) {
    // Cut as a remote answer's text is, so a block reason of any size stays a block.
    const reason = clipText(result.stderr.trim()) || "blocked by a command hook (exit code 2)";
    return { action: "block", reason };
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null
        ? `killed by ${result.signal ?? "a signal"}`
        : `exit code ${result.exitCode}${EXIT_HINTS[result.exitCode] ? ` (${EXIT_HINTS[result.exitCode]})` : ""}`;
    return new HookError("HANDLER_FAILED", stderrLine ? `${how}: ${stderrLine}` : how, {
      details,
    });
  }
  return interpretOutput(result.stdout, {
    event,
    truncated: result.truncated.stdout,
    bytes: result.stdoutBytes,
    maxOutputBytes: limits.maxOutputBytes,
    what: "stdout",
    plainText: "context",
    details,
  });
}

/** How to read a hook's answer text (a command's stdout, an http hook's response body). */
export interface OutputReading {
  event: HookEvent;
  /** True when the answer was longer than `maxOutputBytes` and cut. */
  truncated: boolean;
  /** Bytes the answer had, kept or not (at least this many when cut short). */
  bytes: number;
  maxOutputBytes: number;
  /** What the answer is called in messages: `stdout`, `the response body`. */
  what: string;
  /**
   * Text that is not JSON: `context` (a command's stdout: additional context on
   * UserPromptSubmit and SessionStart, ignored elsewhere) or `error` (an http hook's body:
   * an `INVALID_OUTPUT` failure).
   */
  plainText: "context" | "error";
  details?: Record<string, unknown>;
}

/**
 * Read an answer text: empty is continue; JSON (any dialect) is normalised; over the cap on an
 * event that can block is a block unless what was kept is plain text (see `interpretResult`).
 */
export function interpretOutput(output: string, o: OutputReading): HookResponse | HookError {
  const { event, what } = o;
  const details = o.details ?? {};
  const text = output.trim();
  if (o.truncated && eventSpecs[event.eventType]?.canBlock && !/^[^{]/.test(text)) {
    return {
      action: "block",
      reason: `hook output exceeded the ${size(o.maxOutputBytes)} cap (${o.bytes} bytes); treated as a block`,
    };
  }
  if (text.startsWith("{")) {
    if (o.truncated) {
      return new HookError(
        "INVALID_OUTPUT",
        `${what} is JSON longer than the ${o.maxOutputBytes} byte cap (${o.bytes} bytes); it cannot be read`,
        { details },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return new HookError(
        "INVALID_OUTPUT",
        `${what} starts with "{" but is not valid JSON (${(error as Error).message}): ${firstLine(text, 120)}`,
        { cause: error, details },
      );
    }
    const normalised = safeNormalizeHookOutput(json, { event });
    if (!normalised.success) {
      return new HookError("INVALID_OUTPUT", `${what} JSON: ${normalised.error.message}`, {
        cause: normalised.error,
        details,
      });
    }
    return normalised.data;
  }
  if (text.length > 0 && o.plainText === "error") {
    return new HookError(
      "INVALID_OUTPUT",
      `${what} is neither empty nor a JSON object: ${firstLine(text, 120)}`,
      { details },
    );
  }
  const answerField = text.length > 0 ? stdoutAnswerField(specOf(event.eventType)) : undefined;
  if (answerField !== undefined) {
    if (o.truncated) {
      // The last line kept may be cut short: a wrong path is worse than none.
      return new HookError(
        "INVALID_OUTPUT",
        `${what} is longer than the ${o.maxOutputBytes} byte cap (${o.bytes} bytes); its ${answerField} cannot be read`,
        { details },
      );
    }
    // Progress lines may come first: the answer is the last line (the merge checks the value).
    const lines = text.split("\n");
    return { action: "continue", modified: { [answerField]: lines[lines.length - 1]!.trim() } };
  }
  if (text.length > 0 && TEXT_CONTEXT_EVENTS.has(event.eventType)) {
    return { action: "continue", additionalContext: text };
  }
  return CONTINUE;
}
