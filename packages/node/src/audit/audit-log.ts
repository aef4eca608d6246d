import {
  type AuditEvent,
  type AuditEventType,
  type AuditSource,
  auditTypeFilter,
  HookError,
  onAudit,
} from "@a3s-lab/hooks-core";
import { JsonlWriter, type JsonlWriterOptions } from "./jsonl-writer.js";

/** Options of `writeAuditLog`: the file, and which records go in it. */
export interface AuditLogOptions extends JsonlWriterOptions {
  /** Write only these record types (default: every record the source emits). */
  types?: readonly AuditEventType[];
  /**
   * A record could not be written (disk full, file removed under a closed descriptor, a value
   * with no JSON form). Default: one process warning, then a count in `failed`. The firing
   * that produced the record is never failed by its log.
   */
  onError?: (error: HookError, record: AuditEvent) => void;
}

/** A running audit log; `close()` (or `using`) stops listening and closes the file. */
export interface AuditLog extends Disposable {
  /** The file's absolute path. */
  readonly path: string;
  /** Records written. */
  readonly written: number;
  /** Records that could not be written. */
  readonly failed: number;
  /** Stop listening and close the file; calling it again does nothing. */
  close(): void;
}

/**
 * Write the audit records of a `HookEngine` (all of them) or an `A3sClient` (its own hooks')
 * to a JSON Lines file, one record a line, appended synchronously so the log is whole up to
 * the last decision even if the process dies. What is recorded depends on the source's audit
 * level (`info`: registrations, blocks, patches, failures, timeouts; `verbose`: every run).
 *
 * @example
 * ```ts
 * const engine = new HookEngine({ auditLevel: "info" });
 * using log = writeAuditLog(engine, ".a3s/audit.jsonl");
 * // … every block, rewrite and failure is one line: {"type":"blocked","time":…,"hookId":…}
 * ```
 */
export function writeAuditLog(
  source: AuditSource,
  file: string,
  options: AuditLogOptions = {},
): AuditLog {
  if (typeof options !== "object" || options === null) {
    throw new HookError("INVALID_CONFIG", "options: expected an object", {
      path: ["options"],
    });
  }
  const types = auditTypeFilter(options.types);
  const onError = options.onError ?? warnOnce();
  if (typeof onError !== "function") {
    throw new HookError("INVALID_CONFIG", "options.onError: expected a function", {
      path: ["options", "onError"],
    });
  }
  let writer: JsonlWriter | undefined;
  let written = 0;
  let failed = 0;
  // Subscribe first: a source that is not one fails before any file is created.
  const stop = onAudit(source, (record) => {
    if (types !== undefined && !types.has(record.type)) return;
    try {
      writer!.write(record);
      written++;
    } catch (error) {
      failed++;
      try {
        onError(HookError.from(error), record);
      } catch {
        // The host's error handler failed too; the count in `failed` still says so.
      }
    }
  });
  try {
    writer = new JsonlWriter(file, options.mode === undefined ? {} : { mode: options.mode });
  } catch (error) {
    stop();
    throw error;
  }
  const opened = writer;
  return {
    path: opened.path,
    get written() {
      return written;
    },
    get failed() {
      return failed;
    },
    close() {
      stop();
      opened.close();
    },
    [Symbol.dispose]() {
      this.close();
    },
  };
}

function warnOnce(): (error: HookError) => void {
  let warned = false;
  return (error) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`audit log: ${error.message} (later failures are only counted)`, {
      type: "A3sAuditWarning",
      code: error.code,
    });
  };
}
