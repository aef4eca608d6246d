import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import { HOOK_FORMATS } from "./formats/hook-formats.js";
import type { HookSettings } from "./hook-settings.js";
import { trustStorePath } from "./trust-store.js";

/** What a settings watcher listens to: the files themselves and the directories to watch them from. */
export interface SettingsWatchPaths {
  /** Every settings location the load looked at (present or not), and the trust store. */
  files: string[];
  /** Folders whose `*.json` files all count (a managed file's `managed-settings.d/`). */
  folders: string[];
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
  // The project's `.mcp.json` is read with its settings files (and counts toward its trust).
  if (settings.cwd !== undefined && settings.files.some((f) => f.scope === "project")) {
    files.push(join(settings.cwd, ".mcp.json"));
  }
  // Other agents' files are listed only when present: a missing one may still be created.
  const formatFolders: string[] = [];
  const defaults = settings.files.some((f) => f.scope === "project" && f.format === undefined);
  if (defaults) {
    for (const format of Object.values(HOOK_FORMATS)) {
      const where = [
        ...(settings.cwd !== undefined
          ? format.files.project.map((f) => join(settings.cwd!, f))
          : []),
        ...(settings.home !== undefined
          ? format.files.user.map((f) => join(settings.home!, f))
          : []),
      ];
      // A folder of files (`.github/hooks/*.json`) is watched as a folder.
      for (const path of where) {
        if (path.endsWith("/*.json")) formatFolders.push(path.slice(0, -"/*.json".length));
        else files.push(path);
      }
    }
  }
  // A drop-in added later is not among the files read: its folder is watched instead.
  const folders = settings.files
    .filter((f) => f.scope === "managed" && !dirname(f.path).endsWith(".d"))
    .map((f) => join(dirname(f.path), `${basename(f.path, ".json")}.d`));
  folders.push(...formatFolders);
  files.push(...folders);
  const roots = new Set<string>();
  for (const file of files) {
    // Watching from the project or home directory (not from `.claude/`) sees that folder
    // being created, removed and created again.
    const base = [settings.cwd, settings.home].find(
      (b): b is string => b !== undefined && file.startsWith(b + sep),
    );
    roots.add(base ?? (await nearestExisting(dirname(file))));
  }
  return { files: [...new Set(files)], folders: [...new Set(folders)], roots: [...roots] };
}

/**
 * A chokidar `ignored` test that keeps only the watched files, the directories on the way to
 * them and the `*.json` files of `folders`: a root such as the home directory is read, not walked.
 */
export function onlyOnTheWay(
  files: readonly string[],
  folders: readonly string[] = [],
): (path: string) => boolean {
  const keep = new Set<string>();
  for (const file of files) {
    for (let at = file; !keep.has(at); at = dirname(at)) {
      keep.add(at);
      if (dirname(at) === at) break;
    }
  }
  const open = new Set(folders);
  return (path) => !keep.has(path) && !(open.has(dirname(path)) && path.endsWith(".json"));
}

/** Larger files are fingerprinted by size and modification time instead of read. */
const MAX_HASHED_BYTES = 4 * 1024 * 1024;

/**
 * The content of each watched file that exists (`files`, and the `*.json` files of `folders`),
 * as a hash: what decides whether a file changed, whatever the watcher saw.
 */
export async function fingerprintFiles(
  files: readonly string[],
  folders: readonly string[],
): Promise<Map<string, string>> {
  const inFolders = await Promise.all(
    folders.map(async (dir) =>
      (await readdir(dir).catch(() => [] as string[]))
        .filter((n) => n.endsWith(".json"))
        .map((n) => join(dir, n)),
    ),
  );
  const all = [...new Set([...files.filter((f) => !folders.includes(f)), ...inFolders.flat()])];
  const prints = new Map<string, string>();
  await Promise.all(
    all.map(async (file) => {
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) return;
      if (st.size > MAX_HASHED_BYTES) {
        prints.set(file, `size:${st.size}:${st.mtimeMs}`);
        return;
      }
      const bytes = await readFile(file).catch(() => undefined);
      if (bytes) prints.set(file, createHash("sha256").update(bytes).digest("hex"));
    }),
  );
  return prints;
}

/** The files whose fingerprint differs between two maps (added, changed or removed). */
export function changedFiles(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}
