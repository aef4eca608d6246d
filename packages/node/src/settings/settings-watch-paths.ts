import { stat } from "node:fs/promises";
import { dirname, sep } from "node:path";
import type { HookSettings } from "./hook-settings.js";
import { trustStorePath } from "./trust-store.js";

/** What a settings watcher listens to: the files themselves and the directories to watch them from. */
export interface SettingsWatchPaths {
  /** Every settings location the load looked at (present or not), and the trust store. */
  files: string[];
  /**
   * Directories that exist and stay: the project and home directories for their files, else
   * the nearest existing ancestor. A file (or its folder) created later appears under one.
   */
  roots: string[];
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

async function nearestExisting(dir: string): Promise<string> {
  let at = dir;
  while (!(await isDirectory(at))) {
    const up = dirname(at);
    if (up === at) return at;
    at = up;
  }
  return at;
}

/** The files and roots to watch for the locations one `loadHookSettings` read. */
export async function settingsWatchPaths(settings: HookSettings): Promise<SettingsWatchPaths> {
  const files = settings.files.map((f) => f.path);
  if (settings.home !== undefined) files.push(trustStorePath(settings.home));
  const roots = new Set<string>();
  for (const file of files) {
    // Watching from the project or home directory (not from `.claude/`) sees that folder
    // being created, removed and created again.
    const base = [settings.cwd, settings.home].find(
      (b): b is string => b !== undefined && file.startsWith(b + sep),
    );
    roots.add(base ?? (await nearestExisting(dirname(file))));
  }
  return { files: [...new Set(files)], roots: [...roots] };
}

/**
 * A chokidar `ignored` test that keeps only the watched files and the directories on the way to
 * them: a root such as the home directory is read, not walked.
 */
export function onlyOnTheWay(files: readonly string[]): (path: string) => boolean {
  const keep = new Set<string>();
  for (const file of files) {
    for (let at = file; !keep.has(at); at = dirname(at)) {
      keep.add(at);
      if (dirname(at) === at) break;
    }
  }
  return (path) => !keep.has(path);
}
