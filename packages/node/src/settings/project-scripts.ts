import { createHash } from "node:crypto";
import { lstat, readFile, readlink, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { SettingsHook } from "./hook-settings.js";
import type { TrustedScript } from "./settings-origins.js";

export type { TrustedScript } from "./settings-origins.js";

/** Files recorded per load at most, and bytes hashed of one. */
const MAX_SCRIPTS = 64;
const MAX_SCRIPT_BYTES = 8 * 1024 * 1024;

/** Extensions of files an interpreter runs: named without a `/`, they still count as scripts. */
const SCRIPT_EXTENSION = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|lua|ps1)$/i;

/** The folders that hold a project's settings files: one swapped for a link or a copy is another project. */
export const PROJECT_SETTINGS_FOLDERS = [".claude", ".config", ".config/agent"] as const;

/**
 * The words of a shell command, quotes removed (no expansion but the project-directory
 * variables). Good enough to find the files a command names; what it cannot read (a `$VAR`,
 * a glob) names no file.
 */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  const end = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close === -1 ? text.length : close;
      word += text.slice(i + 1, stop);
      i = stop;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\" && '"\\$`'.includes(text[j + 1] ?? "")) j++;
        word += text[j] ?? "";
      }
      i = j;
      inWord = true;
    } else if (c === "\\") {
      word += text[i + 1] ?? "";
      i++;
      inWord = true;
    } else if (/[\s;&|()<>`]/.test(c)) end();
    else {
      word += c;
      inWord = true;
    }
  }
  end();
  return words;
}

const PROJECT_DIR_VARIABLE = /\$(?:\{(?:CLAUDE|A3S)_PROJECT_DIR\}|(?:CLAUDE|A3S)_PROJECT_DIR\b)/g;

/** The paths inside the project that one hook's command (shell or exec form) names. */
export function namedProjectPaths(hook: SettingsHook, projectDir: string): string[] {
  const d = hook.definition as { command?: string; args?: readonly string[]; cwd?: string };
  if (hook.type !== "command") return [];
  const words =
    d.args !== undefined
      ? [...(d.command !== undefined ? [d.command] : []), ...d.args]
      : shellWords(d.command ?? "");
  const base = resolve(projectDir, d.cwd ?? ".");
  const out = new Set<string>();
  for (const raw of words) {
    for (const part of [raw, ...(raw.includes("=") ? [raw.slice(raw.indexOf("=") + 1)] : [])]) {
      const word = part.replace(PROJECT_DIR_VARIABLE, projectDir);
      if (word === "" || /[$*?[\]{}~]/.test(word)) continue;
      const path = resolve(base, word);
      const rel = relative(projectDir, path);
      if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) continue;
      out.add(path);
    }
  }
  return [...out];
}

async function hashFile(path: string): Promise<string | undefined> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return undefined;
  if (!st.isFile()) return "not a file";
  if (st.size > MAX_SCRIPT_BYTES) return `too large (${st.size} bytes)`;
  const text = await readFile(path);
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * The project files the project's command hooks run, each with the hash of its content: every
 * word of a command (or of its exec form) that names a file inside the project, with
 * `$CLAUDE_PROJECT_DIR` read as the project. A word with a `/` or a script's extension that
 * names no file yet is recorded as `absent`, so a script added later is a change too.
 */
export async function projectScripts(
  hooks: readonly SettingsHook[],
  projectDir: string,
): Promise<TrustedScript[]> {
  const paths = new Set<string>();
  for (const hook of hooks) for (const p of namedProjectPaths(hook, projectDir)) paths.add(p);
  const out: TrustedScript[] = [];
  for (const path of [...paths].sort()) {
    if (out.length >= MAX_SCRIPTS) break;
    const rel = relative(projectDir, path);
    const hash = await hashFile(path);
    if (hash !== undefined) {
      // A link out of the project is followed; where it leads is part of what was trusted.
      const real = await realpath(path).catch(() => path);
      out.push({ path: rel, hash: real === path ? hash : `${hash} via ${real}` });
    } else if (rel.includes(sep) || SCRIPT_EXTENSION.test(rel)) {
      out.push({ path: rel, hash: "absent" });
    }
  }
  return out;
}

/**
 * What each folder holding project settings is: `dir:<inode>:<birth time>` (inode numbers are
 * reused at once; a folder made again in its place has another birth time), `link:<target>`,
 * `absent`.
 */
export async function projectFolders(projectDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of PROJECT_SETTINGS_FOLDERS) {
    const path = resolve(projectDir, name);
    const st = await lstat(path, { bigint: true }).catch(() => undefined);
    out[name] = !st
      ? "absent"
      : st.isSymbolicLink()
        ? `link:${await readlink(path).catch(() => "?")}`
        : st.isDirectory()
          ? `dir:${st.ino}:${st.birthtimeNs}`
          : "other";
  }
  return out;
}

/**
 * Which of the project files one hook runs changed since the load that trusted them: the
 * first path whose hash differs, or undefined. Checked before each run, so a script rewritten
 * during a session is caught at once, not at the next load. (A folder swapped for an identical
 * copy runs the same files; a later edit of the copy is caught here like any other.)
 */
export async function changedSinceTrust(
  hook: SettingsHook,
  projectDir: string,
  trusted: readonly TrustedScript[],
): Promise<string | undefined> {
  const expected = new Map(trusted.map((s) => [s.path, s.hash]));
  for (const script of await projectScripts([hook], projectDir)) {
    if (expected.get(script.path) !== script.hash) return script.path;
  }
  return undefined;
}
