import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import { lstat, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookError, type HookEvent, type HookEventName } from "@a3s-lab/hooks-core";
import { readRegularFile } from "../workspace/read-regular-file.js";

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
  /** The content the hooks given the file left when they last finished (see `seal`). */
  sealed: string;
  /** The firing whose hooks were last given the file (its `eventId`). */
  firing?: string;
  /** True when a hook was given the file since the last `seal`: only then is there anything to seal. */
  handed: boolean;
}

/** The file's text when it is a regular file within the size limit, else undefined. */
function currentText(path: string, maxBytes: number): string | undefined {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
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
      sealed: "",
      handed: false,
    });
    return path;
  }

  /**
   * The env file for an event's command hooks: the session's path on the events of
   * {@link ENV_FILE_EVENTS}, undefined otherwise (pass as `envFile` to command hooks).
   *
   * The first time a firing (an event with its `eventId`) asks, the file is put back to what
   * the last `seal` recorded before its hook starts: lines the agent's own commands added since
   * are dropped, so the hooks begin from their own content and `seal` records only what they
   * wrote. (Synchronous, as command hooks ask for the path just before they start.)
   */
  readonly pathFor = (event: HookEvent): string | undefined => {
    if (!ENV_FILE_EVENTS.has(event.eventType as HookEventName)) return undefined;
    const entry = this.#sessions.get(event.sessionId);
    if (!entry) return undefined;
    if (typeof event.eventId === "string" && entry.firing !== event.eventId) {
      entry.firing = event.eventId;
      entry.handed = true;
      this.#restore(entry);
    }
    return entry.path;
  };

  /** Put the file back to the sealed content, unless it already holds exactly that. */
  #restore(entry: Entry): void {
    try {
      const dir = lstatSync(entry.dir);
      if (!dir.isDirectory() || dir.dev !== entry.dev || dir.ino !== entry.ino) return;
      if (currentText(entry.path, this.#maxBytes) === entry.sealed) return;
      // A symlink, a FIFO or changed content: whatever is there is replaced, never followed.
      rmSync(entry.path, { force: true });
      const { O_CREAT, O_EXCL, O_WRONLY, O_NOFOLLOW } = constants;
      const fd = openSync(entry.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, entry.sealed);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Left as it is: `read` refuses a file that is not the sealed one.
    }
  }

  /**
   * Record what the hooks given the session's env file left there: call it when the hooks of
   * an event of {@link ENV_FILE_EVENTS} (the only ones given the file) have finished. When no
   * hook was given the file since the last call (a firing with no hooks), nothing is recorded,
   * so content the agent wrote meanwhile stays refused. `read` refuses content written at any
   * other time, since only the agent (its own commands run as the same user) could have
   * written it. A file `read` would refuse is not recorded.
   */
  async seal(sessionId: string): Promise<void> {
    const entry = this.#sessions.get(sessionId);
    if (!entry?.handed) return;
    entry.handed = false;
    delete entry.firing;
    const text = await this.#readChecked(entry).catch(() => undefined);
    if (text !== undefined) entry.sealed = text;
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
    if (text !== "" && text !== entry.sealed) {
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
