import { dirname, resolve, sep } from "node:path";
import type { SubscribeOptions, Unsubscribe } from "@a3s-lab/hooks-core";
import {
  type HookEngine,
  HookError,
  isHookEventName,
  safeCreateEvent,
  type Timers,
} from "@a3s-lab/hooks-core";
import { defaultTimers, describeValue, Emitter } from "@a3s-lab/hooks-core/internal";
import { type FSWatcher, watch } from "chokidar";
import {
  type ApplyHookSettingsOptions,
  applyHookSettings,
  type SettingsHandle,
} from "./apply-hook-settings.js";
import type { HookSettings } from "./hook-settings.js";
import { type LoadHookSettingsOptions, loadHookSettings } from "./load-hook-settings.js";
import { displayPath, type SettingsProblem } from "./settings-problem.js";
import {
  changedFiles,
  fingerprintFiles,
  onlyOnTheWay,
  type SettingsWatchPaths,
  settingsWatchPaths,
} from "./settings-watch-paths.js";

/** Options of `watchHookSettings`: how its hooks run (as `applyHookSettings`) and when it reloads. */
export interface WatchHookSettingsOptions extends ApplyHookSettingsOptions {
  /** Quiet time after the last change before reloading, in milliseconds. Default 100. */
  debounceMs?: number;
  /** The timers the debounce and the re-checks use (tests pass fakes). Default the real ones. */
  timers?: Timers;
  /**
   * File events in one second past which watching pauses: another process swapping files or
   * folders in a tight loop must not keep the host busy. While paused, the files are re-checked
   * every `recheckMs` (and reloaded when their content changed); after three quiet re-checks
   * watching resumes. Default 200.
   */
  maxEventsPerSecond?: number;
  /** How often the files are re-checked while watching is paused, in milliseconds. Default 2000. */
  recheckMs?: number;
  /**
   * The session id `ConfigChange` events carry, or a function that says it at each change (a
   * host with several sessions names the one the change concerns). Default "".
   */
  sessionId?: string | (() => string);
}

/** A reload that took effect. */
export interface SettingsReloaded {
  /** What was loaded, now in effect. */
  settings: HookSettings;
  /** Its registrations: what runs and what does not (and why). */
  handle: SettingsHandle;
  /** The files whose content differs from the settings replaced (absolute paths). */
  files: string[];
}

/**
 * Why a reload did not take effect (the previous hooks keep running), or why watching failed:
 * - `invalid`: the edit has an error the running settings did not have (a file that no longer
 *   parses, a hook that fails validation); `problems` lists them
 * - `untrusted`: the project's trusted hook settings changed (an edit to its own files or
 *   `.mcp.json`); the trusted ones keep running until `a3s-hooks trust` records the new ones
 * - `blocked`: a `ConfigChange` hook refused the change
 * - `registration`: the engine refused a hook of the new set (a limit)
 * - `failed`: the files could not be loaded at all (the working directory is gone)
 * - `watch`: the file watcher reported an error; watching goes on where it can
 */
export type SettingsReloadProblemReason =
  | "invalid"
  | "untrusted"
  | "blocked"
  | "registration"
  | "failed"
  | "watch";

/** A reload that was refused, or a watcher error. */
export interface SettingsReloadProblem {
  /** What went wrong, as a code to branch on. */
  reason: SettingsReloadProblemReason;
  /** A sentence for people. */
  message: string;
  /** The settings problems behind an `invalid` reload. */
  problems: SettingsProblem[];
  /**
   * The files whose content differs from the settings in effect. A refused change stays
   * different, so it is asked about (and refused) again at every reload until it is undone.
   */
  files: string[];
}

/**
 * What a settings watcher reports: `change` (a reload is coming), `reloaded`, `problem`, and
 * `resumed` (watching again after a storm of events paused it).
 */
export interface SettingsWatcherEvents {
  /** A watched file changed; a reload follows once the files are quiet. */
  change: { files: string[] };
  /** The new settings are in effect. */
  reloaded: SettingsReloaded;
  /** A reload was refused (the previous hooks keep running), or watching failed. */
  problem: SettingsReloadProblem;
  /** Watching resumed after a storm of file events paused it (a `watch` problem said so). */
  resumed: { files: string[] };
}

/** A running `watchHookSettings`: the hooks in effect now, its events, and the way to stop. */
export interface SettingsWatcher extends AsyncDisposable {
  /** The settings in effect. */
  readonly settings: HookSettings;
  /** The registrations in effect. */
  readonly handle: SettingsHandle;
  /** Subscribe to `change`, `reloaded`, `problem` or `resumed`; returns the way to stop. */
  on<K extends keyof SettingsWatcherEvents>(
    name: K,
    listener: (value: SettingsWatcherEvents[K]) => void,
    options?: SubscribeOptions,
  ): Unsubscribe;
  /** Reload now, even when no file changed; resolves with whether the new set took effect. */
  reload(): Promise<boolean>;
  /** Stop watching and remove the hooks in effect. Calling it again is harmless. */
  close(): Promise<void>;
}

const DEFAULT_DEBOUNCE_MS = 100;
const DEFAULT_MAX_EVENTS_PER_SECOND = 200;
const DEFAULT_RECHECK_MS = 2000;
/** Quiet re-checks in a row after which a paused watcher watches again. */
const QUIET_RECHECKS = 3;
/** A burst of events delays its reload by at most this long (or ten debounces, if longer). */
const MAX_DEBOUNCE_WAIT_MS = 1000;

function problemKey(p: SettingsProblem): string {
  return JSON.stringify([p.file, p.path, p.message]);
}

/** The failed registrations of `next` that `previous` did not also have. */
function newRegistrationFailures(previous: SettingsHandle, next: SettingsHandle) {
  const failed = (h: SettingsHandle) =>
    h.skipped.filter((s) => s.reason === "limit" || s.reason === "invalid");
  const before = new Set(failed(previous).map((s) => s.hook.id));
  return failed(next).filter((s) => !before.has(s.hook.id));
}

/** What one settled load read: the settings, where they live, and each file's fingerprint. */
interface Loaded {
  settings: HookSettings;
  paths: SettingsWatchPaths;
  prints: Map<string, string>;
}

function samePrints(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return changedFiles(a, b).length === 0;
}

/**
 * Load, fingerprinting the files before and after: when a file changed during the load (its
 * fingerprint would not describe what was loaded), load again, up to three times.
 */
async function loadSettled(
  load: LoadHookSettingsOptions,
  known?: SettingsWatchPaths,
): Promise<Loaded> {
  let paths = known;
  for (let attempt = 1; ; attempt++) {
    const before = paths ? await fingerprintFiles(paths.files, paths.folders) : undefined;
    const settings = await loadHookSettings(load);
    const now = await settingsWatchPaths(settings);
    const prints = await fingerprintFiles(now.files, now.folders);
    if ((before && samePrints(before, prints)) || attempt >= 3) {
      return { settings, paths: now, prints };
    }
    paths = now;
  }
}

class Watcher implements SettingsWatcher {
  readonly #events = new Emitter<SettingsWatcherEvents>();
  readonly #engine: HookEngine;
  readonly #load: LoadHookSettingsOptions;
  readonly #apply: ApplyHookSettingsOptions;
  readonly #debounceMs: number;
  readonly #timers: Timers;
  readonly #sessionId: string | (() => string);
  #settings: HookSettings;
  #handle: SettingsHandle;
  /** The fingerprints of the files as the settings in effect read them. */
  #prints: Map<string, string>;
  #fs: FSWatcher | undefined;
  #watched = new Set<string>();
  #files = new Set<string>();
  #folders = new Set<string>();
  #ignored: (path: string) => boolean = () => true;
  #timer: unknown;
  /** When the first change of the burst the debounce timer waits on was seen. */
  #burstStart = 0;
  readonly #maxEvents: number;
  readonly #recheckMs: number;
  /** This second's file events, for the budget. */
  #windowStart = Number.NEGATIVE_INFINITY;
  #windowEvents = 0;
  /** Watching is paused for a storm: the files are re-checked on a timer instead. */
  #paused = false;
  #recheckTimer: unknown;
  #quiet = 0;
  #running: Promise<boolean> | undefined;
  #again = false;
  #closed = false;

  constructor(
    engine: HookEngine,
    load: LoadHookSettingsOptions,
    options: WatchHookSettingsOptions,
    loaded: Loaded,
  ) {
    const { debounceMs, timers, sessionId, maxEventsPerSecond, recheckMs, ...apply } = options;
    this.#maxEvents = maxEventsPerSecond ?? DEFAULT_MAX_EVENTS_PER_SECOND;
    this.#recheckMs = recheckMs ?? DEFAULT_RECHECK_MS;
    this.#sessionId = sessionId ?? "";
    this.#engine = engine;
    this.#load = load;
    this.#apply = apply;
    this.#debounceMs = debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.#timers = timers ?? defaultTimers;
    this.#settings = loaded.settings;
    this.#prints = loaded.prints;
    this.#handle = applyHookSettings(engine, loaded.settings, apply);
  }

  get settings(): HookSettings {
    return this.#settings;
  }

  get handle(): SettingsHandle {
    return this.#handle;
  }

  on<K extends keyof SettingsWatcherEvents>(
    name: K,
    listener: (value: SettingsWatcherEvents[K]) => void,
    options?: SubscribeOptions,
  ): Unsubscribe {
    return this.#events.on(name, listener, options);
  }

  async start(paths: SettingsWatchPaths): Promise<void> {
    if (this.#closed) return;
    const { files, folders, roots } = paths;
    this.#files = new Set(files);
    this.#folders = new Set(folders);
    this.#ignored = onlyOnTheWay(files, folders);
    this.#watched = new Set(roots);
    const fs = watch(roots, {
      ignoreInitial: true,
      // Read at each call, so files added by a later load are kept too.
      ignored: (path: string) => this.#ignored(path),
      // Editors save by writing a temp file and renaming it over the old one: one change.
      atomic: true,
    });
    this.#fs = fs;
    fs.on("all", (_event, path) => this.#saw(path));
    // chokidar drops a second change of a file within 50 ms of the first; the raw events of
    // the folders' watchers still tell, so a quick second save is not lost.
    fs.on("raw", (_event, name, details) => {
      const dir = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof dir !== "string") return;
      this.#saw(typeof name === "string" && name !== "" ? resolve(dir, name) : dir);
    });
    fs.on("error", (error) =>
      this.#problem({
        reason: "watch",
        message: `watching the settings files: ${(error as Error).message}`,
        problems: [],
        files: [],
      }),
    );
    await new Promise<void>((resolve) => fs.once("ready", resolve));
  }

  #saw(path: string): void {
    if (this.#closed || this.#paused) return;
    const now = this.#timers.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#windowEvents = 0;
    }
    // Every event counts, a file of interest or not: each costs the host, a storm costs it all.
    if (++this.#windowEvents > this.#maxEvents) {
      this.#pause();
      return;
    }
    // A folder on the way (`.claude/` created or removed) changes the files under it.
    const hits =
      this.#files.has(path) || (this.#folders.has(dirname(path)) && path.endsWith(".json"))
        ? [path]
        : [...this.#files].filter((f) => f.startsWith(path + sep));
    if (hits.length === 0) return;
    this.#events.emit("change", { files: hits });
    if (this.#timer !== undefined) {
      // Changes that never stop for a debounce still reload, at most this late.
      if (now - this.#burstStart >= Math.max(MAX_DEBOUNCE_WAIT_MS, this.#debounceMs * 10)) return;
      this.#timers.clearTimeout(this.#timer);
    } else this.#burstStart = now;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      void this.#queue(false).catch(() => {});
    }, this.#debounceMs);
  }

  /** Too many events: stop watching and re-check the files on a timer until they are quiet. */
  #pause(): void {
    this.#paused = true;
    this.#quiet = 0;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const fs = this.#fs;
    this.#fs = undefined;
    void fs?.close().catch(() => {});
    this.#problem({
      reason: "watch",
      message: `settings watch paused: more than ${this.#maxEvents} file events in a second; the settings files are re-checked every ${this.#recheckMs} ms until they are quiet`,
      problems: [],
      files: [],
    });
    this.#scheduleRecheck();
  }

  #scheduleRecheck(): void {
    if (this.#closed) return;
    this.#recheckTimer = this.#timers.setTimeout(() => {
      this.#recheckTimer = undefined;
      void this.#recheck().catch(() => {});
    }, this.#recheckMs);
  }

  /** One re-check while paused: reload if the content changed; watch again once it is quiet. */
  async #recheck(): Promise<void> {
    if (this.#closed) return;
    const paths = await settingsWatchPaths(this.#settings);
    const prints = await fingerprintFiles(paths.files, paths.folders);
    if (changedFiles(this.#prints, prints).length > 0) {
      this.#quiet = 0;
      await this.#queue(false);
    } else this.#quiet++;
    if (this.#closed) return;
    if (this.#quiet < QUIET_RECHECKS) {
      this.#scheduleRecheck();
      return;
    }
    this.#paused = false;
    this.#windowStart = Number.NEGATIVE_INFINITY;
    try {
      await this.start(paths);
    } catch (error) {
      this.#problem({
        reason: "watch",
        message: `watching the settings files: ${HookError.from(error).message}`,
        problems: [],
        files: [],
      });
    }
    if (this.#closed) return;
    this.#events.emit("resumed", { files: [...this.#files] });
    // Changed between the last re-check and the watch being ready: not missed.
    void this.#queue(false).catch(() => {});
  }

  reload(): Promise<boolean> {
    return this.#queue(true);
  }

  #queue(forced: boolean): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#running) {
      // One reload at a time; changes seen meanwhile get one more, after it.
      this.#again = true;
      return this.#running;
    }
    const run = this.#reload(forced).finally(() => {
      this.#running = undefined;
      if (this.#again && !this.#closed) {
        this.#again = false;
        void this.#queue(false).catch(() => {});
      }
    });
    this.#running = run;
    return run;
  }

  async #reload(forced: boolean): Promise<boolean> {
    let loaded: Loaded;
    try {
      loaded = await loadSettled(this.#load, await settingsWatchPaths(this.#settings));
    } catch (error) {
      this.#problem({
        reason: "failed",
        message: `settings not reloaded: ${HookError.from(error).message}`,
        problems: [],
        files: [],
      });
      return false;
    }
    const { settings: next } = loaded;
    // What differs from the settings in effect, by content: a change that was refused stays
    // different (and is asked about again) until it is accepted or undone.
    const files = changedFiles(this.#prints, loaded.prints);
    if (this.#closed || (files.length === 0 && !forced)) return false;
    const refuse = (problem: Omit<SettingsReloadProblem, "files">) => {
      this.#problem({ ...problem, files });
      return false;
    };
    const known = new Set(this.#settings.problems.map(problemKey));
    const errors = next.problems.filter((p) => p.severity === "error" && !known.has(problemKey(p)));
    if (errors.length > 0) {
      return refuse({
        reason: "invalid",
        message: `settings not reloaded: ${errors.length} new error(s); the previous hooks keep running`,
        problems: errors,
      });
    }
    const refusal = await this.#configChange(files, next);
    if (refusal !== undefined) {
      return refuse({
        reason: "blocked",
        message: `settings not reloaded: a ConfigChange hook refused ${refusal}`,
        problems: [],
      });
    }
    // Any edit to the project's files (deleting them included) changes their hash, and the
    // agent can make one: accepting it would switch the trusted project hooks off mid-session.
    // They stay until trusted anew.
    const before = this.#settings.project;
    if (before?.trusted && !before.changed && next.project?.changed) {
      return refuse({
        reason: "untrusted",
        message:
          'settings not reloaded: project hook settings changed; the trusted ones keep running until you run "a3s-hooks trust"',
        problems: [],
      });
    }
    if (this.#closed) return false;
    const previous = { settings: this.#settings, handle: this.#handle };
    // Out with the old set and in with the new one in the same synchronous step: a firing
    // picks its hooks when it starts, so none sees both sets or neither. Removing first keeps
    // the two sets from counting against the engine's limits together.
    previous.handle.unregister();
    const handle = applyHookSettings(this.#engine, next, this.#apply);
    const failed = newRegistrationFailures(previous.handle, handle);
    if (failed.length > 0) {
      handle.unregister();
      this.#handle = applyHookSettings(this.#engine, previous.settings, this.#apply);
      return refuse({
        reason: "registration",
        message: `settings not reloaded: ${failed.map((s) => `${s.hook.event} hook ${s.hook.name}: ${s.message}`).join("; ")}`,
        problems: [],
      });
    }
    this.#settings = next;
    this.#handle = handle;
    this.#prints = loaded.prints;
    this.#watchMore(loaded.paths);
    this.#events.emit("reloaded", { settings: next, handle, files });
    return true;
  }

  /**
   * When the host defined Claude Code's `ConfigChange` event: fire it for each changed settings
   * file, through the hooks in effect now. The first block refuses the whole reload, except for
   * a managed (`policy_settings`) file, which no hook can refuse. Returns the refusal.
   */
  async #configChange(files: string[], next: HookSettings): Promise<string | undefined> {
    if (!isHookEventName("ConfigChange")) return undefined;
    for (const file of files) {
      const source = this.#sourceOf(file, next);
      if (source === undefined) continue;
      const event = safeCreateEvent("ConfigChange", {
        sessionId: typeof this.#sessionId === "function" ? this.#sessionId() : this.#sessionId,
        source,
        filePath: file,
      });
      if (!event.success) continue;
      const result = await this.#engine.fire(event.data);
      if (result.action === "block" && source !== "policy_settings") {
        return `the change of ${displayPath(file, this.#settings)}: ${result.reason}`;
      }
    }
    return undefined;
  }

  /** Claude Code's name for where a settings file sits; undefined for the trust store. */
  #sourceOf(file: string, next: HookSettings): string | undefined {
    const scope =
      next.files.find((f) => f.path === file)?.scope ??
      this.#settings.files.find((f) => f.path === file)?.scope ??
      (this.#folders.has(file) || this.#folders.has(dirname(file)) ? "managed" : undefined);
    switch (scope) {
      case "managed":
        return "policy_settings";
      case "project":
        return file.endsWith(".local.json") ? "local_settings" : "project_settings";
      case "user":
      case "explicit":
        return "user_settings";
      default:
        return undefined;
    }
  }

  /** Locations can appear between loads (a file named by a setting): watch them too. */
  #watchMore({ files, folders, roots }: SettingsWatchPaths): void {
    const added = files.filter((f) => !this.#files.has(f));
    if (added.length === 0 || this.#closed || !this.#fs) return;
    for (const f of added) this.#files.add(f);
    for (const f of folders) this.#folders.add(f);
    this.#ignored = onlyOnTheWay([...this.#files], [...this.#folders]);
    const fresh = roots.filter((r) => !this.#watched.has(r));
    for (const r of fresh) this.#watched.add(r);
    if (fresh.length > 0) this.#fs.add(fresh);
  }

  #problem(problem: SettingsReloadProblem): void {
    this.#events.emit("problem", problem);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    if (this.#recheckTimer !== undefined) this.#timers.clearTimeout(this.#recheckTimer);
    this.#timer = undefined;
    this.#recheckTimer = undefined;
    this.#handle.unregister();
    await this.#fs?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Load the settings files, register their hooks (as `applyHookSettings` does), and keep them
 * current: every location `loadHookSettings` reads is watched, files that do not exist yet
 * included, and so is the trust store, so `a3s-hooks trust` in another terminal takes effect.
 * A burst of changes (an editor's temp file and rename) reloads once, after `debounceMs`; changes
 * that never pause reload at least once a second. A storm of file events (more than
 * `maxEventsPerSecond`, say another process swapping a folder and a symlink in a loop) pauses
 * watching: the files are re-checked every `recheckMs` instead, and watching resumes once they
 * are quiet, so the host is never kept busy by events.
 *
 * A reload takes effect in full or not at all: the new set replaces the old one in one step,
 * so no firing sees both or neither. An edit with a new error (a file that no longer parses)
 * keeps the previous hooks running and is reported as a `problem`. So does a change to the
 * project's trusted hook settings: the trusted set keeps running until `a3s-hooks trust`
 * records the new definitions, which then replace it.
 *
 * @example
 * ```ts
 * const watcher = await watchHookSettings(engine, { cwd }, { projectDir: cwd });
 * watcher.on("reloaded", ({ handle }) => console.log(`settings reloaded: ${handle.applied.length} hooks`));
 * watcher.on("problem", ({ message }) => console.warn(message));
 * // …
 * await watcher.close();
 * ```
 */
export async function watchHookSettings(
  engine: HookEngine,
  load: LoadHookSettingsOptions,
  options: WatchHookSettingsOptions = {},
): Promise<SettingsWatcher> {
  const debounce = options.debounceMs;
  if (debounce !== undefined && !(Number.isFinite(debounce) && debounce >= 0)) {
    throw new HookError(
      "INVALID_CONFIG",
      `debounceMs: expected a number of milliseconds (0 or more), got ${describeValue(debounce)}`,
      { path: ["debounceMs"] },
    );
  }
  for (const [key, value, least] of [
    ["maxEventsPerSecond", options.maxEventsPerSecond, 1],
    ["recheckMs", options.recheckMs, 1],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= least)) {
      throw new HookError(
        "INVALID_CONFIG",
        `${key}: expected a number of at least ${least}, got ${describeValue(value)}`,
        { path: [key] },
      );
    }
  }
  const loaded = await loadSettled(load);
  const watcher = new Watcher(engine, load, options, loaded);
  try {
    await watcher.start(loaded.paths);
  } catch (error) {
    await watcher.close();
    throw error;
  }
  return watcher;
}
