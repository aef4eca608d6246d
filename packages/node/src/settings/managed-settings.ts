import { lstat, readdir, readlink } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import type { HttpHookPolicy } from "../handlers/http/http-hook.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import type { ManagedPolicy, PluginOnlySurface, SettingsScope } from "./settings-origins.js";
import { displayPath, type SettingsProblem } from "./settings-problem.js";

export type { ManagedPolicy, PluginOnlySurface } from "./settings-origins.js";

/** Drop-in files read from one `managed-settings.d` directory at most; past it the rest are reported and ignored. */
export const MAX_MANAGED_DROP_INS = 64;

/**
 * The system-wide policy files read by default, highest precedence first: A3S's own
 * (`/etc/a3s-hooks/managed-settings.json`), so an administrator can set policy for A3S agents
 * without touching Claude Code's, then Claude Code's for the platform, so a machine's existing
 * Claude Code policy governs A3S agents too. Each file's `managed-settings.d/*.json` drop-ins
 * are read with it.
 */
export function defaultManagedSettingsFiles(
  platform: NodeJS.Platform = process.platform,
): string[] {
  if (platform === "win32") return ["C:\\Program Files\\ClaudeCode\\managed-settings.json"];
  const claude =
    platform === "darwin"
      ? "/Library/Application Support/ClaudeCode/managed-settings.json"
      : "/etc/claude-code/managed-settings.json";
  return ["/etc/a3s-hooks/managed-settings.json", claude];
}

const PLUGIN_ONLY_SURFACES: readonly PluginOnlySurface[] = ["skills", "agents", "hooks", "mcp"];

/** True when a managed file reserves this surface for plugins and managed settings. */
export function pluginOnly(policy: ManagedPolicy | undefined, surface: PluginOnlySurface): boolean {
  return policy?.strictPluginOnlyCustomization?.value.includes(surface) === true;
}

/** The policy keys of one file, as read. */
export type PolicyKeys = { [K in keyof ManagedPolicy]?: NonNullable<ManagedPolicy[K]>["value"] };

/** Keys honoured in managed files only. */
const MANAGED_ONLY = ["allowManagedHooksOnly"] as const;
const STRING_LISTS = [
  "allowedHttpHookUrls",
  "httpHookAllowedEnvVars",
  "commandHookAllowedSecrets",
] as const;

/**
 * Read the policy keys at the top of one settings file. `allowManagedHooksOnly` outside a
 * managed file is a warning and ignored (a project cannot make itself the only source), and
 * so are `allowedHttpHookUrls`, `httpHookAllowedEnvVars` and `commandHookAllowedSecrets` in a
 * project's files (a cloned repository must not ask for the user's secrets).
 */
export function readPolicyKeys(
  record: Record<string, unknown>,
  file: string,
  scope: SettingsScope,
  problems: SettingsProblem[],
): PolicyKeys {
  const out: PolicyKeys = {};
  const problem = (path: string, message: string, severity: "error" | "warning" = "error") =>
    problems.push({ file, path, message, severity });
  for (const key of MANAGED_ONLY) {
    const value = record[key];
    if (value === undefined) continue;
    if (scope !== "managed") {
      problem(key, "honoured in managed (system-wide) settings only; ignored here", "warning");
    } else if (typeof value !== "boolean") {
      problem(key, `expected true or false, got ${describeValue(value)}`);
    } else out[key] = value;
  }
  const strict = record.strictPluginOnlyCustomization;
  if (strict !== undefined) {
    if (scope !== "managed") {
      problem(
        "strictPluginOnlyCustomization",
        "honoured in managed (system-wide) settings only; ignored here",
        "warning",
      );
    } else if (strict === true || strict === false) {
      out.strictPluginOnlyCustomization = strict ? [...PLUGIN_ONLY_SURFACES] : [];
    } else if (
      Array.isArray(strict) &&
      strict.every((v) => PLUGIN_ONLY_SURFACES.includes(v as PluginOnlySurface))
    ) {
      out.strictPluginOnlyCustomization = [...new Set(strict as PluginOnlySurface[])];
    } else {
      // Unsure what was meant: reserve every surface rather than leave one open.
      out.strictPluginOnlyCustomization = [...PLUGIN_ONLY_SURFACES];
      problem(
        "strictPluginOnlyCustomization",
        `expected true, false or a list of "skills", "agents", "hooks", "mcp", got ${describeValue(strict)}; every surface is kept to plugins and managed settings`,
      );
    }
  }
  for (const key of STRING_LISTS) {
    const value = record[key];
    if (value === undefined) continue;
    if (scope === "project") {
      // A cloned repository must not narrow the policy (switching managed http hooks off) nor
      // widen it (sending the user's secrets to a server of its choosing).
      problem(
        key,
        "honoured in managed, user and explicit settings only; ignored in a project's files",
        "warning",
      );
    } else if (
      !Array.isArray(value) ||
      value.some((v) => typeof v !== "string") ||
      value.length > 1024
    ) {
      problem(key, `expected an array of at most 1024 strings, got ${describeValue(value)}`);
    } else out[key] = value as string[];
  }
  return out;
}

/** The managed policy: for each key, the first managed file (in precedence order) that sets it. */
export function managedPolicy(
  files: readonly { path: string; scope: SettingsScope; policy?: PolicyKeys | undefined }[],
): ManagedPolicy {
  const out: Record<string, { value: unknown; file: string }> = {};
  for (const f of files) {
    if (f.scope !== "managed" || !f.policy) continue;
    for (const [key, value] of Object.entries(f.policy)) {
      if (value !== undefined && out[key] === undefined) out[key] = { value, file: f.path };
    }
  }
  return out as ManagedPolicy;
}

/**
 * The value of an http policy list: the managed files' when one sets it (no other file can
 * widen it), else the user's and explicit files' entries together (Claude Code merges these
 * lists; a project's files never count).
 */
export function policyList(
  key: (typeof STRING_LISTS)[number],
  managed: ManagedPolicy,
  files: readonly { scope: SettingsScope; trusted: boolean; policy?: PolicyKeys | undefined }[],
): string[] | undefined {
  const fixed = managed[key];
  if (fixed) return [...fixed.value];
  let out: Set<string> | undefined;
  for (const f of files) {
    const value = f.trusted ? f.policy?.[key] : undefined;
    if (value === undefined) continue;
    out ??= new Set();
    for (const v of value) out.add(v);
  }
  return out && [...out];
}

/** Who may own a managed file and the folders on its way: root, or the user running the host. */
export interface PathOwnerCheck {
  /** The uid besides root that may own them. Default `process.getuid()`. */
  uid?: number;
}

/**
 * The managed files to read for the given `managed-settings.json` paths, highest precedence
 * first: each file's drop-ins (`managed-settings.d/*.json`, later names first, as later ones
 * win), then the file. A file is refused (with a problem naming the offending path) unless its
 * whole resolved path is safe, as sshd's StrictModes asks: see {@link unsafeManagedPath}.
 */
export async function managedFiles(
  paths: readonly string[],
  check: PathOwnerCheck = {},
): Promise<{ files: string[]; problems: SettingsProblem[] }> {
  const files: string[] = [];
  const problems: SettingsProblem[] = [];
  const refuse = (file: string, message: string) =>
    problems.push({ file, path: "", message, severity: "error" });
  for (const path of paths) {
    const dir = dirname(path);
    const dropIns = join(dir, `${basename(path, ".json")}.d`);
    const names = await readdir(dropIns).catch(() => undefined);
    if (names !== undefined) {
      const why = await unsafeManagedPath(dropIns, check);
      if (why) refuse(dropIns, why);
      else {
        const json = names
          .filter((n) => n.endsWith(".json") && !n.startsWith("."))
          .sort()
          .reverse();
        if (json.length > MAX_MANAGED_DROP_INS) {
          refuse(
            dropIns,
            `${json.length} drop-in files; the first ${MAX_MANAGED_DROP_INS} by name are read`,
          );
        }
        for (const name of json.slice(-MAX_MANAGED_DROP_INS)) {
          const file = join(dropIns, name);
          const whyFile = await unsafeManagedPath(file, check);
          if (whyFile) refuse(file, whyFile);
          else files.push(file);
        }
      }
    }
    const whyFile = await unsafeManagedPath(path, check);
    if (whyFile) refuse(path, whyFile);
    else files.push(path);
  }
  return { files, problems };
}

/** Symbolic links followed on one path at most, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

/**
 * Why a managed path cannot be trusted, naming the offending entry, or undefined (also when it
 * does not exist). Every entry met while resolving it — each folder from `/` down, each
 * symbolic link and each link's target, the file itself — must be owned by root or the given
 * user (default: the one running the host) and writable by no group or other user, as sshd's
 * StrictModes asks of its configuration. One exception, narrower than "writable": a folder
 * above the last one that has the sticky bit (`/tmp`) is passed, since nobody but an entry's
 * owner may rename or remove what it holds, and that entry is checked in turn. The folder
 * holding the file (or a drop-in folder itself) must not be writable even with the sticky bit:
 * anyone could add a file there.
 */
export async function unsafeManagedPath(
  path: string,
  check: PathOwnerCheck = {},
): Promise<string | undefined> {
  // Windows has no owner uid or mode bits to read here; its ACLs are the administrator's.
  if (process.platform === "win32") return undefined;
  const uid = check.uid ?? process.getuid?.();
  const visited: { path: string; mode: number; dir: boolean }[] = [];
  let links = 0;
  let at = "/";
  const rootStat = await lstat(at);
  visited.push({ path: at, mode: rootStat.mode, dir: true });
  const ownerProblem = (p: string, owner: number) =>
    uid !== undefined && owner !== 0 && owner !== uid
      ? `${p} is owned by uid ${owner}, neither root nor this user: not a policy anyone set; ignored`
      : undefined;
  const rootOwner = ownerProblem(at, rootStat.uid);
  if (rootOwner) return rootOwner;
  const todo = resolve(path)
    .split(sep)
    .filter((p) => p !== "");
  while (todo.length > 0) {
    const name = todo.shift()!;
    if (name === ".") continue;
    if (name === "..") {
      at = dirname(at);
      continue;
    }
    const next = join(at, name);
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(next);
    } catch {
      return undefined;
    }
    const owner = ownerProblem(next, st.uid);
    if (owner) return owner;
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return `${next}: too many symbolic links; ignored`;
      const target = await readlink(next);
      todo.unshift(...target.split(sep).filter((p) => p !== ""));
      if (isAbsolute(target)) at = "/";
      continue;
    }
    visited.push({ path: next, mode: st.mode, dir: st.isDirectory() });
    at = next;
  }
  // The entry itself and the folder holding it: no write bit for group or others at all.
  const last = visited.length - 1;
  for (const [i, v] of visited.entries()) {
    if ((v.mode & 0o022) === 0) continue;
    const sticky = (v.mode & 0o1000) !== 0;
    if (v.dir && sticky && i < last - 1) continue;
    const who = (v.mode & 0o002) !== 0 ? "every user" : "its group";
    return `${who} may write ${v.path}${v.dir ? " (a folder on its path)" : ""}, so it is not a policy anyone set: ignored`;
  }
  return undefined;
}

/**
 * The http policy one hook runs under: a managed hook only under the managed files' lists (a
 * user's or explicit file's list never restricts it), any other hook under `httpHookPolicy`.
 */
export function httpPolicyFor(settings: HookSettings, hook: SettingsHook): HttpHookPolicy {
  if (hook.scope !== "managed") return settings.httpHookPolicy ?? {};
  const urls = settings.managedPolicy?.allowedHttpHookUrls?.value;
  const vars = settings.managedPolicy?.httpHookAllowedEnvVars?.value;
  return {
    ...(urls ? { allowedUrls: urls } : {}),
    ...(vars ? { allowedEnvVars: vars } : {}),
  };
}

/**
 * The host secrets one command hook inherits: a managed hook only those the managed files
 * list, any other hook those of `commandHookAllowedSecrets` (see `HOST_SECRET_VARIABLES`).
 */
export function allowedSecretsFor(settings: HookSettings, hook: SettingsHook): string[] {
  if (hook.scope === "managed")
    return settings.managedPolicy?.commandHookAllowedSecrets?.value ?? [];
  return settings.commandHookAllowedSecrets ?? [];
}

/** Why the settings' policy keeps a hook from running, if it does. */
export interface PolicySkip {
  reason: "disabled" | "managed-only" | "plugin-only";
  message: string;
}

function scopeOf(settings: HookSettings, file: string | undefined): SettingsScope | undefined {
  return settings.files.find((f) => f.path === file)?.scope;
}

/**
 * The switches that turn hooks off, as Claude Code reads them: `disableAllHooks` (or the A3S
 * SDK's `enabled: false`) in a managed file turns every hook off; in any other file it turns off
 * every hook but the managed ones, which no user or project file can switch off. A managed
 * `allowManagedHooksOnly: true` leaves only the managed hooks.
 */
export function policySkip(
  settings: HookSettings,
  hook: SettingsHook,
  where: { cwd?: string; home?: string },
): PolicySkip | undefined {
  const { options, optionSources } = settings;
  const key =
    options.disableAllHooks === true
      ? ("disableAllHooks" as const)
      : options.enabled === false
        ? ("enabled" as const)
        : undefined;
  const managedOff = key !== undefined && scopeOf(settings, optionSources[key]) === "managed";
  if (key !== undefined && (managedOff || hook.scope !== "managed")) {
    const file = displayPath(optionSources[key] ?? "settings", where);
    return {
      reason: "disabled",
      message: `hooks are turned off by "${key}": ${key === "enabled" ? "false" : "true"} in ${file}${managedOff || !settings.hooks.some((h) => h.scope === "managed") ? "" : " (managed hooks still run)"}`,
    };
  }
  const only = settings.managedPolicy?.allowManagedHooksOnly;
  if (only?.value === true && hook.scope !== "managed") {
    return {
      reason: "managed-only",
      message: `only managed hooks run: "allowManagedHooksOnly": true in ${displayPath(only.file, where)}`,
    };
  }
  const strict = settings.managedPolicy?.strictPluginOnlyCustomization;
  // A skill's or subagent's hooks count as that skill's: with skills or agents reserved, no
  // frontmatter hook can show it came with a plugin.
  const reserved =
    pluginOnly(settings.managedPolicy, "hooks") ||
    (hook.scope === "frontmatter" &&
      (pluginOnly(settings.managedPolicy, "skills") ||
        pluginOnly(settings.managedPolicy, "agents")));
  if (strict && reserved && hook.scope !== "managed" && hook.scope !== "plugin") {
    return {
      reason: "plugin-only",
      message: `only plugin and managed hooks run: "strictPluginOnlyCustomization" in ${displayPath(strict.file, where)}`,
    };
  }
  return undefined;
}
