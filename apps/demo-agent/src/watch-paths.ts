import path from "node:path";
import { MAX_WATCH_PATHS } from "@a3s-lab/hooks-core";
import { type FSWatcher, watch } from "chokidar";

/** What a watched file did: Claude Code's FileChanged `event`. */
export type WatchedChange = "add" | "change" | "unlink";

/**
 * The files one session watches because its SessionStart, CwdChanged or FileChanged hooks
 * answered `watchPaths`. A change made from outside (an editor, `git pull`, another process)
 * calls `onChange`, which fires FileChanged. A directory is watched one level deep, never
 * recursively: a hook's `/` must not walk the disk. At most {@link MAX_WATCH_PATHS} paths per
 * session; more are ignored. `close()` stops it (the session ended).
 */
export class WatchPaths {
  readonly #onChange: (file: string, change: WatchedChange) => void;
  readonly #paths = new Set<string>();
  #watcher: FSWatcher | undefined;
  #closed = false;

  constructor(onChange: (file: string, change: WatchedChange) => void) {
    this.#onChange = onChange;
  }

  /** The paths watched so far. */
  get paths(): readonly string[] {
    return [...this.#paths];
  }

  /**
   * Watch `paths` too (absolute paths, checked by core's watchPaths schema). Resolves once the
   * first watcher is ready, so a change right after it is seen. Returns how many paths were
   * ignored for the cap.
   */
  async add(paths: readonly string[] | undefined): Promise<number> {
    if (this.#closed || paths === undefined) return 0;
    const fresh: string[] = [];
    let ignored = 0;
    for (const p of paths) {
      const resolved = path.resolve(p);
      if (this.#paths.has(resolved)) continue;
      if (this.#paths.size >= MAX_WATCH_PATHS) {
        ignored++;
        continue;
      }
      this.#paths.add(resolved);
      fresh.push(resolved);
    }
    if (fresh.length === 0) return ignored;
    if (this.#watcher) {
      this.#watcher.add(fresh);
      return ignored;
    }
    const watcher = watch(fresh, { ignoreInitial: true, depth: 0, persistent: true });
    this.#watcher = watcher;
    watcher.on("all", (event, file) => {
      // Only file events: Claude Code does not deliver a directory's own addDir or unlinkDir.
      if (!this.#closed && (event === "add" || event === "change" || event === "unlink")) {
        this.#onChange(file, event);
      }
    });
    // A watch error (EMFILE, a permission) is not the agent's failure: the path goes unwatched.
    watcher.on("error", () => {});
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    return ignored;
  }

  /** Stop watching; later changes are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#watcher?.close();
    this.#watcher = undefined;
  }
}
