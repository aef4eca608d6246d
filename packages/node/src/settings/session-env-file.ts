import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookError, type HookEvent, type HookEventName } from "@a3s-lab/hooks-core";
import { readRegularFile } from "./read-regular-file.js";

/** Bytes of an env file read; a larger file is refused whole (nothing of it is applied). Default 64 KiB. */
export const DEFAULT_ENV_FILE_MAX_BYTES = 64 * 1024;

/**
 * Events whose command hooks get `CLAUDE_ENV_FILE`: what they write there (`export NAME=value`
 * lines) is sourced before each later Bash command of the session. Claude Code names
 * SessionStart, CwdChanged and FileChanged; events this catalogue does not have never fire.
 */
export const ENV_FILE_EVENTS: ReadonlySet<string> = new Set([
  "SessionStart",
  "CwdChanged",
  "FileChanged",
]);

/** Options of {@link SessionEnvFiles}. */
export interface SessionEnvFilesOptions {
  /** Where each session's private folder is made. Default `os.tmpdir()`. */
  dir?: string;
  /** Bytes read of one env file; a larger one is refused. Default 64 KiB. */
  maxBytes?: number;
  /** Sessions with an env file at once; `create` past it throws `LIMIT_EXCEEDED`. Default 1024. */
  maxSessions?: number;
}

interface Entry {
  dir: string;
  path: string;
  /** The folder's identity when it was made: a folder swapped in later is not ours. */
  dev: number;
  ino: number;
  /** Inode numbers are reused at once: a folder made again in its place has another birth time. */
  birth: number;
  /** The content's size and hash when the hooks given the file last finished (see `seal`). */
  sealed: { size: number; hash: string };
}

function fingerprint(text: string): { size: number; hash: string } {
  return { size: text.length, hash: createHash("sha256").update(text).digest("hex") };
}

/**
 * Claude Code's `CLAUDE_ENV_FILE`, one per session: a file in a private folder (mode 0700, the
 * file 0600) whose path SessionStart hooks (and CwdChanged, FileChanged) get in
 * `CLAUDE_ENV_FILE`, and whose `export` lines the host sources before each later Bash command.
 * `read` refuses what is not the file this session was given: a symlink, a FIFO or another
 * non-regular file, a file over the size limit, a file of another user, a folder swapped in
 * for the session's, or content written after the hooks given the file finished (the host
 * calls `seal` then). `remove` (at session end) deletes the folder.
 *
 * @example
 * ```ts
 * const envFiles = new SessionEnvFiles();
 * await envFiles.create(sessionId);
 * applyHookSettings(engine, settings, { envFile: envFiles.pathFor });
 * await engine.fire(sessionStart);
 * await envFiles.seal(sessionId); // after SessionStart, CwdChanged and FileChanged
 * // before each Bash command:
 * const prelude = await envFiles.read(sessionId); // "" when nothing was written
 * ```
 */
export class SessionEnvFiles implements AsyncDisposable {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #maxSessions: number;
  readonly #sessions = new Map<string, Entry>();

  constructor(options: SessionEnvFilesOptions = {}) {
    this.#dir = options.dir ?? tmpdir();
    this.#maxBytes = options.maxBytes ?? DEFAULT_ENV_FILE_MAX_BYTES;
    this.#maxSessions = options.maxSessions ?? 1024;
  }

  /** Make the session's env file (empty) and return its path; the same path if it exists. */
  async create(sessionId: string): Promise<string> {
    const known = this.#sessions.get(sessionId);
    if (known) return known.path;
    if (this.#sessions.size >= this.#maxSessions) {
      throw new HookError(
        "LIMIT_EXCEEDED",
        `env files: ${this.#maxSessions} sessions already have one; end a session first`,
      );
    }
    const dir = await mkdtemp(join(this.#dir, "a3s-env-"));
    const path = join(dir, "env.sh");
    const { O_CREAT, O_EXCL, O_WRONLY, O_NOFOLLOW } = constants;
    const handle = await open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
    await handle.close();
    const st = await lstat(dir);
    this.#sessions.set(sessionId, {
      dir,
      path,
      dev: st.dev,
      ino: st.ino,
      birth: st.birthtimeMs,
      sealed: fingerprint(""),
    });
    return path;
  }

  /**
   * The env file for an event's command hooks: the session's path on the events of
   * {@link ENV_FILE_EVENTS}, undefined otherwise (pass as `envFile` to command hooks).
   */
  readonly pathFor = (event: HookEvent): string | undefined =>
    ENV_FILE_EVENTS.has(event.eventType as HookEventName)
      ? this.#sessions.get(event.sessionId)?.path
      : undefined;

  /**
   * Record the session's env file as it is now: call it when the hooks of an event of
   * {@link ENV_FILE_EVENTS} (the only ones given the file) have finished. `read` refuses
   * content written at any other time, since only the agent (its own commands run as the
   * same user) could have written it. A file `read` would refuse is not recorded.
   */
  async seal(sessionId: string): Promise<void> {
    const entry = this.#sessions.get(sessionId);
    if (!entry) return;
    const text = await this.#readChecked(entry).catch(() => undefined);
    if (text !== undefined) entry.sealed = fingerprint(text);
  }

  /**
   * What the session's hooks wrote, to run before a Bash command (`""` when nothing, or when
   * the session has no env file). Throws `INVALID_CONFIG` for a file that is not the one the
   * session was given (see the class), without reading any of it, and for content that
   * changed since the last `seal` (nothing of it is to run).
   */
  async read(sessionId: string): Promise<string> {
    const entry = this.#sessions.get(sessionId);
    if (!entry) return "";
    const text = await this.#readChecked(entry);
    const now = fingerprint(text);
    if (text !== "" && (now.size !== entry.sealed.size || now.hash !== entry.sealed.hash)) {
      throw new HookError(
        "INVALID_CONFIG",
        `CLAUDE_ENV_FILE ${entry.path}: changed after the hooks given it finished; nothing of it runs`,
      );
    }
    return text;
  }

  async #readChecked(entry: Entry): Promise<string> {
    const refuse = (why: string) =>
      new HookError("INVALID_CONFIG", `CLAUDE_ENV_FILE ${entry.path}: ${why}; not applied`);
    const dir = await lstat(entry.dir).catch(() => undefined);
    if (
      !dir?.isDirectory() ||
      dir.dev !== entry.dev ||
      dir.ino !== entry.ino ||
      dir.birthtimeMs !== entry.birth
    ) {
      throw refuse("its folder is not the one made for this session");
    }
    if ((dir.mode & 0o077) !== 0) throw refuse("its folder is open to other users");
    let text: string | { problem: string };
    try {
      text = await readRegularFile(entry.path, this.#maxBytes, { noFollow: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return "";
      throw refuse(code === "ELOOP" ? "a symbolic link" : (error as Error).message);
    }
    if (typeof text !== "string") throw refuse(text.problem);
    const st = await lstat(entry.path).catch(() => undefined);
    if (st && typeof process.getuid === "function" && st.uid !== process.getuid()) {
      throw refuse("owned by another user");
    }
    if (text.includes("\0")) throw refuse("it holds NUL bytes");
    return text;
  }

  /** Delete the session's env file and folder (at session end). */
  async remove(sessionId: string): Promise<void> {
    const entry = this.#sessions.get(sessionId);
    if (!entry) return;
    this.#sessions.delete(sessionId);
    await rm(entry.dir, { recursive: true, force: true });
  }

  /** Delete every session's env file and folder, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.remove(id)));
  }
}
