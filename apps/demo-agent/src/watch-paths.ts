import type { Stats } from "node:fs";
import { opendir, stat } from "node:fs/promises";
import path from "node:path";
import { MAX_WATCH_PATHS } from "@a3s-lab/hooks-core";
import { type FSWatcher, watch } from "chokidar";

/** What a watched file did: Claude Code's FileChanged `event`. */
export type WatchedChange = "add" | "change" | "unlink";

/**
 * How long after skipping the agent's own change the file is looked at once more. chokidar drops
 * a second `change` of a file within 50 ms of the first, so an outside write right after the
 * agent's would otherwise never be reported.
 */
export const OWN_WRITE_RECHECK_MS = 150;

/**
 * The most files and folders one session's watch covers, all its paths together. chokidar
 * watches every entry of a watched folder (one inotify watch each on Linux), and the user's
 * watches are few (often 8,192 or 65,536 in all): a hook's answer naming big folders, or a folder
 * a hook fills, must not use them up for every other program.
 */
export const MAX_WATCHED_ENTRIES = 10_000;

/** The most files and folders the watches of all sessions of one client cover together. */
export const MAX_WATCHED_ENTRIES_PER_CLIENT = 20_000;

/** The most files and folders the watches of all sessions cover together, whoever owns them. */
export const MAX_WATCHED_ENTRIES_TOTAL = 100_000;

/**
 * The watched entries the sessions of one agent share: at most `perOwner` for the sessions of
 * one owner (the SDK client that created them, or the local user) and `total` for all, so one
 * client's sessions (or the hooks answering `watchPaths` for them) cannot take the watches, and
 * the memory they cost, from everyone else. Each {@link WatchPaths} takes what it watches from
 * here and gives it back when it drops a folder or closes.
 */
export class WatchBudget {
  readonly perOwner: number;
  readonly total: number;
  readonly #byOwner = new Map<string, number>();
  #used = 0;

  constructor(limits: { perOwner?: number | undefined; total?: number | undefined } = {}) {
    this.perOwner = limits.perOwner ?? MAX_WATCHED_ENTRIES_PER_CLIENT;
    this.total = limits.total ?? MAX_WATCHED_ENTRIES_TOTAL;
  }

  /** Entries in use: all owners', or one owner's. */
  used(owner?: string): number {
    return owner === undefined ? this.#used : (this.#byOwner.get(owner) ?? 0);
  }

  /**
   * Take `count` entries for `owner`. Returns undefined when they were taken, else a sentence
   * naming the limit that refused them (nothing is taken then).
   */
  take(owner: string, count: number): string | undefined {
    const mine = this.#byOwner.get(owner) ?? 0;
    if (mine + count > this.perOwner) {
      return `the limit of ${this.perOwner} watched files and folders per client (maxWatchedEntriesPerClient)`;
    }
    if (this.#used + count > this.total) {
      return `the limit of ${this.total} watched files and folders for all sessions (maxWatchedEntriesTotal)`;
    }
    this.#byOwner.set(owner, mine + count);
    this.#used += count;
    return undefined;
  }

  /** Give back entries `owner` took. */
  give(owner: string, count: number): void {
    if (count <= 0) return;
    const left = (this.#byOwner.get(owner) ?? 0) - count;
    if (left > 0) this.#byOwner.set(owner, left);
    else this.#byOwner.delete(owner);
    this.#used = Math.max(0, this.#used - count);
  }
}

export interface WatchPathsOptions {
  /** Overrides {@link MAX_WATCHED_ENTRIES} (tests use a small one). */
  maxWatchedEntries?: number | undefined;
  /** The budget this session's watches share with the agent's other sessions. */
  budget?: WatchBudget | undefined;
  /** Who the session's watches are charged to in `budget`. Default `"local"`. */
  owner?: string | undefined;
  /** Told, in a sentence for the user, when paths are not watched or no longer watched for the limit. */
  onLimit?: ((message: string) => void) | undefined;
  /**
   * Told when the watcher ignores a change because it is the agent's own write (see
   * {@link WatchPaths.ownWrite}): FileChanged already fired for it. For logs and tests.
   */
  onSkipped?: ((file: string, change: WatchedChange) => void) | undefined;
}

/** What a file looked like right after the agent wrote it. */
interface Identity {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/**
 * The files one session watches because its SessionStart, CwdChanged or FileChanged hooks
 * answered `watchPaths`. A change made from outside (an editor, `git pull`, another process)
 * calls `onChange`, which fires FileChanged; the agent's own writes, which fire FileChanged
 * themselves, go through {@link WatchPaths.ownWrite} and are not reported again. A directory is
 * watched one level deep, never recursively: a hook's `/` must not walk the disk. At most
 * {@link MAX_WATCH_PATHS} paths per session, covering at most {@link MAX_WATCHED_ENTRIES} files
 * and folders: a path that would pass that is not watched, nor any after it, and a watched
 * folder that fills past it is no longer watched (`onLimit` says so). `close()` stops it (the
 * session ended).
 */
export class WatchPaths {
  readonly #onChange: (file: string, change: WatchedChange) => void;
  readonly #onSkipped: WatchPathsOptions["onSkipped"];
  readonly #onLimit: WatchPathsOptions["onLimit"];
  readonly #maxEntries: number;
  readonly #budget: WatchBudget | undefined;
  readonly #owner: string;
  /** The watched paths, each with the entries it costs (itself, and a folder's files). */
  readonly #paths = new Map<string, number>();
  /** The entries of all watched paths, kept up to date as files come and go in watched folders. */
  #entries = 0;
  /** A path did not fit, or a folder filled past the limit: no more are watched. */
  #full = false;
  /** Folders no longer watched because they filled past the limit. */
  readonly #dropped = new Set<string>();
  /**
   * Files the agent wrote, as they were right after (or as a recheck last reported them): an
   * event that still finds a file so was already told.
   */
  readonly #written = new Map<string, Identity>();
  /** The agent's writes in progress, by file: an event for one waits until it is done. */
  readonly #writing = new Map<string, Promise<unknown>>();
  readonly #rechecks = new Set<NodeJS.Timeout>();
  /** Events are handled one after another, so they are reported in the order they came. */
  #queue: Promise<void> = Promise.resolve();
  #watcher: FSWatcher | undefined;
  #closed = false;

  constructor(
    onChange: (file: string, change: WatchedChange) => void,
    options: WatchPathsOptions = {},
  ) {
    this.#onChange = onChange;
    this.#onSkipped = options.onSkipped;
    this.#onLimit = options.onLimit;
    this.#maxEntries = options.maxWatchedEntries ?? MAX_WATCHED_ENTRIES;
    this.#budget = options.budget;
    this.#owner = options.owner ?? "local";
  }

  /** The paths watched so far. */
  get paths(): readonly string[] {
    return [...this.#paths.keys()];
  }

  /**
   * Watch `paths` too (absolute paths, checked by core's watchPaths schema). Resolves once the
   * first watcher is ready, so a change right after it is seen. Returns how many paths were
   * ignored for the caps.
   */
  async add(paths: readonly string[] | undefined): Promise<number> {
    if (this.#closed || paths === undefined) return 0;
    const fresh: string[] = [];
    let ignored = 0;
    let tooMany = 0;
    let refusedBy: string | undefined;
    for (const p of paths) {
      const resolved = path.resolve(p);
      if (this.#paths.has(resolved)) continue;
      if (this.#paths.size >= MAX_WATCH_PATHS) {
        ignored++;
        continue;
      }
      const cost = this.#full ? 0 : await entriesOf(resolved, this.#maxEntries - this.#entries);
      // Taken by another add while this one counted.
      if (this.#paths.has(resolved)) continue;
      if (this.#full || this.#entries + cost > this.#maxEntries) {
        this.#full = true;
        tooMany++;
        continue;
      }
      const refused = this.#budget?.take(this.#owner, cost);
      if (refused !== undefined) {
        refusedBy = refused;
        tooMany++;
        continue;
      }
      this.#entries += cost;
      this.#paths.set(resolved, cost);
      fresh.push(resolved);
    }
    if (tooMany > 0) {
      this.#onLimit?.(
        `${tooMany} watchPaths not watched: watching them would pass ${refusedBy ?? `the limit of ${this.#maxEntries} watched files and folders`}`,
      );
    }
    ignored += tooMany;
    if (fresh.length === 0 || this.#closed) return ignored;
    if (this.#watcher) {
      this.#watcher.add(fresh);
      return ignored;
    }
    const watcher = watch(fresh, { ignoreInitial: true, depth: 0, persistent: true });
    this.#watcher = watcher;
    watcher.on("all", (event, file) => {
      const folder = path.dirname(file);
      if (this.#dropped.has(folder)) {
        // Its watch was being set up as the folder was dropped: give it back too.
        this.#release(folder);
        return;
      }
      if (event === "add" || event === "addDir") this.#grew(file, 1);
      else if (event === "unlink" || event === "unlinkDir") this.#grew(file, -1);
      // Only file events: Claude Code does not deliver a directory's own addDir or unlinkDir.
      if (event === "add" || event === "change" || event === "unlink") {
        this.#enqueue(() => this.#handle(file, event));
      }
    });
    // A watch error (EMFILE, a permission) is not the agent's failure: the path goes unwatched.
    watcher.on("error", () => {});
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    return ignored;
  }

  /**
   * Count an entry that came or went inside a watched folder; drop the folder once the watch
   * covers more than the limit, so a folder a hook keeps filling cannot use up the watches.
   */
  #grew(file: string, by: 1 | -1): void {
    const folder = path.dirname(file);
    const cost = this.#paths.get(folder);
    if (cost === undefined || this.#paths.has(file) || this.#closed) return;
    if (by < 0) {
      this.#paths.set(folder, cost + by);
      this.#entries += by;
      this.#budget?.give(this.#owner, 1);
      return;
    }
    const refused =
      this.#entries + 1 > this.#maxEntries
        ? `the limit of ${this.#maxEntries} watched files and folders`
        : this.#budget?.take(this.#owner, 1);
    if (refused === undefined) {
      this.#paths.set(folder, cost + 1);
      this.#entries += 1;
      return;
    }
    this.#paths.delete(folder);
    this.#dropped.add(folder);
    this.#full = true;
    this.#entries -= cost;
    this.#budget?.give(this.#owner, cost);
    this.#release(folder);
    this.#onLimit?.(`${folder} is no longer watched: its files passed ${refused}`);
  }

  /**
   * Run the agent's own write of `file` (absolute). `write` writes and resolves with the file's
   * stats right after (from the handle it wrote through). While it runs, a watcher event for
   * the file waits; afterwards, an event that still finds the file as written is skipped, since
   * the agent fires FileChanged for its own writes. A later change from outside (other stats:
   * inode, size, modification or change time), and any unlink, is reported.
   */
  async ownWrite(file: string, write: () => Promise<Stats>): Promise<void> {
    const resolved = path.resolve(file);
    if (this.#closed || !this.#covers(resolved)) {
      await write();
      return;
    }
    const run = write().then((stats) => {
      this.#written.set(resolved, identity(stats));
    });
    const before = this.#writing.get(resolved);
    const all = Promise.allSettled(before === undefined ? [run] : [before, run]);
    this.#writing.set(resolved, all);
    try {
      await run;
    } finally {
      await all;
      if (this.#writing.get(resolved) === all) this.#writing.delete(resolved);
    }
  }

  /**
   * Give back the watches of a dropped folder and of the files in it. chokidar tells of a new
   * file before it records that file's watch, so this waits for that; and its unwatch of a
   * folder keeps its files' own watches, so they are named too.
   */
  #release(folder: string): void {
    setImmediate(() => {
      const files = this.#watcher?.getWatched()[folder] ?? [];
      this.#watcher?.unwatch([folder, ...files.map((name) => path.join(folder, name))]);
    });
  }

  /** Stop watching; later changes are ignored. */
  async close(): Promise<void> {
    if (!this.#closed) this.#budget?.give(this.#owner, this.#entries);
    this.#entries = 0;
    this.#closed = true;
    for (const timer of this.#rechecks) clearTimeout(timer);
    this.#rechecks.clear();
    this.#written.clear();
    await this.#watcher?.close();
    this.#watcher = undefined;
  }

  /** Whether chokidar reports `file`: a watched path, or a file right inside a watched folder. */
  #covers(file: string): boolean {
    return this.#paths.has(file) || this.#paths.has(path.dirname(file));
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch(() => {});
  }

  async #handle(file: string, change: WatchedChange): Promise<void> {
    if (this.#closed) return;
    if (change !== "unlink") {
      await this.#writing.get(file);
      const written = this.#written.get(file);
      if (written !== undefined) {
        const now = await identityOf(file);
        // Gone since (the event came late): the unlink is what to report, and chokidar will.
        if (this.#closed || now === undefined) return;
        if (sameIdentity(written, now)) {
          // The note stays: the same write can raise more than one event (its truncate, its write).
          this.#onSkipped?.(file, change);
          this.#recheckLater(file);
          return;
        }
      }
    }
    this.#written.delete(file);
    this.#onChange(file, change);
  }

  /** Look at `file` again once chokidar's change throttle is over; report it if it changed since. */
  #recheckLater(file: string): void {
    const timer = setTimeout(() => {
      this.#rechecks.delete(timer);
      this.#enqueue(async () => {
        const written = this.#written.get(file);
        // Reported or unlinked since: chokidar saw the change itself.
        if (written === undefined || this.#closed) return;
        const now = await identityOf(file);
        // Gone: chokidar reports the unlink. Unchanged: nothing to tell.
        if (now === undefined || this.#closed || sameIdentity(written, now)) return;
        // Noted as reported, so chokidar's own event for this same state, if it comes late, is not a second report.
        this.#written.set(file, now);
        this.#onChange(file, "change");
      });
    }, OWN_WRITE_RECHECK_MS);
    timer.unref();
    this.#rechecks.add(timer);
  }
}

/**
 * The entries watching `file` costs: 1, plus a folder's entries (chokidar watches each); stops
 * counting once past `room`, since the answer is then too many.
 */
async function entriesOf(file: string, room: number): Promise<number> {
  const stats = await stat(file).catch(() => undefined);
  if (!stats?.isDirectory()) return 1;
  let count = 1;
  try {
    for await (const _ of await opendir(file)) {
      if (++count > room) break;
    }
  } catch {
    // Unreadable: chokidar cannot list it either.
  }
  return count;
}

function identity(stats: Stats): Identity {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

async function identityOf(file: string): Promise<Identity | undefined> {
  return stat(file).then(identity, () => undefined);
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}
