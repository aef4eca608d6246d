import { closeSync, constants, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { HookError } from "@a3s-lab/hooks-core";

/** Options of `new JsonlWriter(options)`. */
export interface JsonlWriterOptions {
  /**
   * Permissions of the file when this creates it (default `0o600`: logs name hooks, tools and
   * reasons, which are nobody else's business). An existing file keeps its own.
   */
  mode?: number;
}

/**
 * An append-only JSON Lines file. Each value is written synchronously as one line, so the file
 * is whole up to its last line even when the process is killed; the folder is created if
 * missing, and a symlink in the file's place is refused.
 *
 * @example
 * ```ts
 * using log = new JsonlWriter("logs/events.jsonl");
 * log.write({ hello: "world" }); // {"hello":"world"}\n
 * ```
 */
export class JsonlWriter implements Disposable {
  /** The file's absolute path. */
  readonly path: string;
  #fd: number | undefined;
  #lines = 0;

  constructor(file: string, options: JsonlWriterOptions = {}) {
    if (typeof file !== "string" || file === "" || file.includes("\0") || file.length > 4096) {
      const shown = typeof file === "string" ? JSON.stringify(file.slice(0, 80)) : typeof file;
      throw new HookError("INVALID_CONFIG", `file: expected a file path, got ${shown}`, {
        path: ["file"],
      });
    }
    const mode = options.mode ?? 0o600;
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) {
      throw new HookError(
        "INVALID_CONFIG",
        `options.mode: expected permission bits from 0 to 0o777, got ${String(mode)}`,
        { path: ["options", "mode"] },
      );
    }
    this.path = path.resolve(file);
    try {
      mkdirSync(path.dirname(this.path), { recursive: true });
      // O_NOFOLLOW: a symlink planted where the log goes (in a shared folder, say) must not
      // turn this log's lines into appends to whatever it points at.
      const { O_APPEND, O_CREAT, O_WRONLY, O_NOFOLLOW } = constants;
      this.#fd = openSync(this.path, O_APPEND | O_CREAT | O_WRONLY | O_NOFOLLOW, mode);
    } catch (error) {
      throw new HookError(
        "UNAVAILABLE",
        `file: cannot open ${this.path}: ${(error as Error).message}`,
        { path: ["file"], cause: error },
      );
    }
  }

  /** Lines written so far. */
  get lines(): number {
    return this.#lines;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#fd === undefined;
  }

  /** Append `value` as one line of JSON. Throws a HookError when it cannot. */
  write(value: unknown): void {
    const fd = this.#fd;
    if (fd === undefined) {
      throw new HookError("UNAVAILABLE", `${this.path}: the log is closed`);
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new HookError("INVALID_OUTPUT", `value: not JSON (${(error as Error).message})`, {
        cause: error,
      });
    }
    if (json === undefined) {
      throw new HookError("INVALID_OUTPUT", `value: ${typeof value} has no JSON form`);
    }
    const bytes = Buffer.from(`${json}\n`, "utf8");
    try {
      // One write call for the whole line: appends never interleave inside it. A regular file
      // takes it all unless the disk is full, which the loop reports rather than truncates.
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (error) {
      throw new HookError(
        "UNAVAILABLE",
        `${this.path}: cannot write: ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.#lines++;
  }

  /** Close the file; later writes throw. Idempotent. */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    closeSync(fd);
  }

  /** The same as `close()`, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}
