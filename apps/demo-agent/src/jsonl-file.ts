import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { AgentError } from "./agent-error.js";

/**
 * An append-only JSON Lines file. Each record is written synchronously as one line, so the
 * file is complete up to the last record even if the process is killed.
 *
 * @example
 * ```ts
 * using log = new JsonlFile("events.jsonl");
 * log.write({ hello: "world" });
 * ```
 */
export class JsonlFile implements Disposable {
  readonly path: string;
  #fd: number | undefined;

  constructor(file: string) {
    if (typeof file !== "string" || file === "" || file.includes("\0")) {
      throw new AgentError(
        "INVALID_INPUT",
        `file: expected a file path, got ${JSON.stringify(file)}`,
        {
          path: ["file"],
        },
      );
    }
    this.path = path.resolve(file);
    try {
      mkdirSync(path.dirname(this.path), { recursive: true });
      this.#fd = openSync(this.path, "a", 0o600);
    } catch (error) {
      throw new AgentError(
        "INVALID_INPUT",
        `file: cannot open ${this.path}: ${(error as Error).message}`,
        {
          path: ["file"],
          cause: error,
        },
      );
    }
  }

  write(record: unknown): void {
    if (this.#fd === undefined) return;
    writeSync(this.#fd, `${JSON.stringify(record)}\n`);
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
