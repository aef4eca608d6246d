import { readdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { HookError } from "@a3s-lab/hooks-core";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookFormat } from "./formats/hook-format.js";
import { detectFormat, HOOK_FORMATS } from "./formats/hook-formats.js";
import { hookFingerprint } from "./hook-fingerprint.js";
import type {
  HookFormatName,
  HookSettings,
  ProjectTrustState,
  SettingsHook,
} from "./hook-settings.js";
import {
  defaultManagedSettingsFiles,
  managedFiles,
  managedPolicy,
  pluginOnly,
  policyList,
} from "./managed-settings.js";
import {
  type LoadedMcpServer,
  loadMcpJson,
  type McpJsonFile,
  mcpToolHookProblems,
  mergeMcpServers,
} from "./mcp-servers.js";
import {
  enabledPluginCandidates,
  type LoadedPlugin,
  loadPlugin,
  type PluginCandidate,
} from "./plugins.js";
import { notTrusted, type ProjectTrust, projectTrust } from "./project-trust-state.js";
import { type Candidate, holdsSettings, type LoadedFile, loadFile } from "./settings-file.js";
import { httpPolicyProblems } from "./settings-hook-registration.js";
import type { SettingsProblem } from "./settings-problem.js";
import { SETTINGS_OPTION_KEYS } from "./settings-schema.js";
import type { TrustStore } from "./trust-store.js";

/** Options of `loadHookSettings`: where to look. */
export interface LoadHookSettingsOptions {
  /** The working directory: its project files are read (and need trust to run). */
  cwd: string;
  /** The user's home directory. Default `os.homedir()`. */
  home?: string;
  /** More files, read first (highest precedence) and trusted: the user named them. */
  files?: readonly string[];
  /** Read the default locations too. Default true. */
  defaults?: boolean;
  /** Larger files are refused. Default 4 MiB. */
  maxFileBytes?: number;
  /**
   * System-wide policy files (the `managed` scope): read first, always trusted, their options
   * win over every other file's. Each is a `managed-settings.json`; the `managed-settings.d/*.json`
   * drop-ins beside it are read too. Default {@link defaultManagedSettingsFiles} when `defaults`
   * is not false, else none.
   */
  managedSettings?: readonly string[];
  /**
   * Plugin folders to load, as Claude Code's `--plugin-dir` does: each folder's
   * `hooks/hooks.json` and `.mcp.json`, trusted (the user named them). Installed plugins
   * (`~/.claude/plugins/installed_plugins.json`) load when a trusted settings file's
   * `enabledPlugins` turns them on.
   */
  plugins?: readonly string[];
  /**
   * The format of the `files` named: `claude-code` (ours, also the A3S shapes), `cursor` or
   * `gemini`. Default: told by each file's place (`.cursor/hooks.json`,
   * `.gemini/settings.json`), else ours.
   */
  fileFormat?: HookFormatName | "claude-code";
  /**
   * Read the other agents' files in their default places (`.cursor/hooks.json`,
   * `.gemini/settings.json`, in the project and the home directory). Default true when
   * `defaults` is.
   */
  otherFormats?: boolean;
}

/** Project locations, highest precedence first (relative to the working directory). */
export const PROJECT_SETTINGS_FILES = [
  ".config/agent/settings.local.json",
  ".config/agent/settings.json",
  ".claude/settings.local.json",
  ".claude/settings.json",
] as const;

/** User locations, highest precedence first (relative to the home directory). */
export const USER_SETTINGS_FILES = [
  ".config/agent/settings.json",
  ".config/cli-agent/settings.json",
  ".claude/settings.json",
] as const;

/** A format's location: the file itself, or each `*.json` of a folder (`.github/hooks/*.json`), by name. */
async function formatFiles(location: string): Promise<string[]> {
  if (!location.endsWith("/*.json")) return [location];
  const dir = location.slice(0, -"/*.json".length);
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => join(dir, n));
}

/** The format of a file the user named: the one asked for, else told by its place. */
function explicitFormat(
  path: string,
  asked: LoadHookSettingsOptions["fileFormat"],
): HookFormat | undefined {
  if (asked === "claude-code") return undefined;
  if (asked !== undefined) {
    if (!Object.hasOwn(HOOK_FORMATS, asked)) {
      throw new HookError(
        "INVALID_CONFIG",
        `fileFormat: expected one of "claude-code", ${Object.keys(HOOK_FORMATS)
          .map((n) => `"${n}"`)
          .join(", ")}, got ${describeValue(asked)}`,
      );
    }
    return HOOK_FORMATS[asked];
  }
  return detectFormat(path);
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

async function realOrSame(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/**
 * Read every settings file, in precedence order: explicit `files`, then
 * `.config/agent/settings.local.json`, `.config/agent/settings.json`,
 * `.claude/settings.local.json`, `.claude/settings.json` (in `cwd`), then
 * `~/.config/agent/settings.json`, `~/.config/cli-agent/settings.json`, `~/.claude/settings.json`.
 *
 * Hooks from every file add up; scalar options come from the first file that sets them. A bad
 * file (or a bad part of one) is reported in `problems` and the rest still loads. Hooks from the
 * project's own files are marked untrusted until `trustProject` records their hash (of the
 * definitions, options, MCP servers, the project scripts the commands name and the identity of
 * the folders holding the settings: a change to any is a change); options from
 * untrusted project files are ignored (a cloned repository must not be able to switch the
 * user's hooks off).
 *
 * @example
 * ```ts
 * const settings = await loadHookSettings({ cwd: process.cwd() });
 * for (const p of settings.problems) console.warn(formatProblem(p, { cwd: process.cwd() }));
 * const handle = applyHookSettings(engine, settings);
 * ```
 */
export async function loadHookSettings(options: LoadHookSettingsOptions): Promise<HookSettings> {
  const { cwd, projectDir } = await checkCwd(options);
  if (options.fileFormat !== undefined) explicitFormat("", options.fileFormat);
  const home = resolve(options.home ?? homedir());
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_BYTES;
  const managed = await managedFiles(
    options.managedSettings ?? (options.defaults !== false ? defaultManagedSettingsFiles() : []),
  );
  const candidates = await oneReadPerFile(
    await settingsCandidates(options, managed.files, { cwd, projectDir, home }),
  );
  const [loaded, mcpJson] = await Promise.all([
    Promise.all(candidates.map((c) => loadFile(c, maxBytes))),
    options.defaults !== false ? loadMcpJson(projectDir, { maxBytes }) : undefined,
  ]);
  const settings: HookSettings = {
    hooks: [],
    options: {},
    optionSources: {},
    problems: [],
    files: [],
    cwd: projectDir,
    home,
  };
  const trust = await projectTrust(loaded, mcpJson, projectDir, home);
  settings.project = trust.state;
  if (trust.storeProblem && trust.hasSettings) {
    settings.problems.push({
      file: home,
      path: "",
      message: trust.storeProblem,
      severity: "warning",
    });
  }
  addFiles(settings, loaded, trust);
  if (mcpJson) addMcpJson(settings, mcpJson, trust.state);
  const plugins = await loadPlugins(options, loaded, { home, cwd, maxBytes });
  addPlugins(settings, plugins);
  settings.mcpServers = mergeServers(loaded, mcpJson, plugins.loaded);
  markDisabled(settings.hooks, trust.store.disabledHooks);
  applyPolicy(settings, loaded, managed.problems);
  if (pluginOnly(settings.managedPolicy, "mcp")) keepPluginServers(settings);
  settings.problems.push(...(await mcpToolHookProblems(settings)));
  settings.problems.push(...httpPolicyProblems(settings));
  return settings;
}

/** `cwd` checked: a directory that is there, and its real path (the project's). */
async function checkCwd(
  options: LoadHookSettingsOptions,
): Promise<{ cwd: string; projectDir: string }> {
  if (typeof options?.cwd !== "string" || options.cwd === "") {
    throw new HookError(
      "INVALID_CONFIG",
      `cwd: expected a directory, got ${describeValue(options?.cwd)}`,
    );
  }
  const cwd = resolve(options.cwd);
  const cwdStat = await stat(cwd).catch(() => undefined);
  if (!cwdStat?.isDirectory()) {
    throw new HookError("INVALID_CONFIG", `cwd: no such directory ${JSON.stringify(cwd)}`);
  }
  return { cwd, projectDir: await realpath(cwd) };
}

/** Every file to read, in precedence order: managed, named, project, user (each: ours, then others'). */
async function settingsCandidates(
  options: LoadHookSettingsOptions,
  managed: readonly string[],
  where: { cwd: string; projectDir: string; home: string },
): Promise<Candidate[]> {
  const candidates: Candidate[] = [
    ...managed.map((path) => ({ path, scope: "managed" as const, explicit: false })),
    ...(options.files ?? []).map((f): Candidate => {
      const path = resolve(where.cwd, f);
      const format = explicitFormat(path, options.fileFormat);
      return { path, scope: "explicit", explicit: true, ...(format ? { format } : {}) };
    }),
  ];
  if (options.defaults === false) return candidates;
  const others = options.otherFormats !== false ? Object.values(HOOK_FORMATS) : [];
  const places = [
    { scope: "project", dir: where.projectDir, ours: PROJECT_SETTINGS_FILES },
    { scope: "user", dir: where.home, ours: USER_SETTINGS_FILES },
  ] as const;
  for (const { scope, dir, ours } of places) {
    for (const f of ours) candidates.push({ path: join(dir, f), scope, explicit: false });
    for (const format of others) {
      for (const f of format.files[scope]) {
        for (const path of await formatFiles(join(dir, f)))
          candidates.push({ path, scope, explicit: false, format });
      }
    }
  }
  return candidates;
}

/** One file, one read: when cwd is the home directory, ~/.claude/settings.json is a user file. */
async function oneReadPerFile(candidates: readonly Candidate[]): Promise<Candidate[]> {
  const real = await Promise.all(candidates.map((c) => realOrSame(c.path)));
  const userReal = new Set(real.filter((_, i) => candidates[i]!.scope === "user"));
  const seen = new Set<string>();
  const unique: Candidate[] = [];
  for (const [i, c] of candidates.entries()) {
    const key = real[i]!;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(c.scope === "project" && userReal.has(key) ? { ...c, scope: "user" } : c);
  }
  return unique;
}

/** Each file's hooks, problems and options, in precedence order; an untrusted project's are held back. */
function addFiles(
  settings: HookSettings,
  loaded: readonly LoadedFile[],
  trust: ProjectTrust,
): void {
  for (const file of loaded) {
    const untrusted = file.info.scope === "project" && !trust.state.trusted;
    file.info.trusted = !untrusted;
    // Another agent's file is listed only when it is there: most projects have none.
    if (file.info.format !== undefined && !file.info.exists && file.info.scope !== "explicit")
      continue;
    settings.files.push(file.info);
    settings.problems.push(...file.problems);
    let stillUntrusted = 0;
    for (const hook of file.hooks) {
      hook.trusted = !untrusted || trust.hookTrust.has(hook);
      if (!hook.trusted) stillUntrusted++;
      settings.hooks.push(hook);
    }
    for (const server of file.mcpServers?.servers ?? []) server.trusted = !untrusted;
    if (untrusted && holdsSettings(file)) {
      settings.problems.push({
        file: file.info.path,
        path: "",
        message: `${notTrusted(trust.state)}: ${stillUntrusted} hook(s) and its options are ignored; review them and run "a3s-hooks trust"`,
        severity: "warning",
      });
      continue;
    }
    mergeOptions(settings, file);
  }
}

/** The project's `.mcp.json`: its servers start only when the project is trusted. */
function addMcpJson(settings: HookSettings, mcpJson: McpJsonFile, state: ProjectTrustState): void {
  for (const server of mcpJson.servers) server.trusted = state.trusted;
  settings.problems.push(...mcpJson.problems);
  if (!state.trusted && mcpJson.servers.length > 0) {
    settings.problems.push({
      file: mcpJson.path,
      path: "",
      message: `${notTrusted(state)}: its ${mcpJson.servers.length} MCP server(s) are not started; review them and run "a3s-hooks trust"`,
      severity: "warning",
    });
  }
}

/** The loaded plugins' hooks and problems, and the list of plugins. */
function addPlugins(
  settings: HookSettings,
  plugins: { loaded: readonly LoadedPlugin[]; problems: readonly SettingsProblem[] },
): void {
  for (const plugin of plugins.loaded) {
    settings.hooks.push(...plugin.hooks);
    settings.problems.push(...plugin.problems);
  }
  settings.problems.push(...plugins.problems);
  if (plugins.loaded.length > 0) {
    settings.plugins = plugins.loaded.map(({ name, id, root, dataDir }) => ({
      name,
      id,
      root,
      dataDir,
    }));
  }
}

/**
 * Every MCP server, by precedence. Project servers (settings files and .mcp.json) outrank the
 * user's, as in Claude Code; a plugin's go by plugin:<name>:<server>, so they never take
 * another's name.
 */
function mergeServers(
  loaded: readonly LoadedFile[],
  mcpJson: McpJsonFile | undefined,
  plugins: readonly LoadedPlugin[],
): LoadedMcpServer[] {
  const blocks = (scope: (s: string) => boolean) =>
    loaded.filter((f) => scope(f.info.scope)).flatMap((f) => (f.mcpServers ? [f.mcpServers] : []));
  return mergeMcpServers([
    ...blocks((s) => s !== "user"),
    ...(mcpJson ? [mcpJson] : []),
    ...blocks((s) => s === "user"),
    ...plugins.map((p) => ({ servers: p.mcpServers, problems: [] })),
  ]);
}

/** Mark the hooks the user turned off (`a3s-hooks disable ID`); a managed hook stays on. */
function markDisabled(
  hooks: readonly SettingsHook[],
  disabled: TrustStore["disabledHooks"] = {},
): void {
  if (Object.keys(disabled).length === 0) return;
  for (const hook of hooks) {
    if (hook.scope !== "managed" && Object.hasOwn(disabled, hookFingerprint(hook)))
      hook.disabled = true;
  }
}

/** The plugins to load: the folders named, then those a trusted file's `enabledPlugins` turns on. */
async function loadPlugins(
  options: LoadHookSettingsOptions,
  loaded: readonly LoadedFile[],
  where: { home: string; cwd: string; maxBytes: number },
): Promise<{ loaded: LoadedPlugin[]; problems: SettingsProblem[] }> {
  const enabled = await enabledPluginCandidates(
    loaded.map((f) => ({
      path: f.info.path,
      scope: f.info.scope,
      trusted: f.info.trusted,
      ...(f.enabledPlugins ? { enabledPlugins: f.enabledPlugins } : {}),
    })),
    where,
  );
  const candidates: PluginCandidate[] = [
    ...(options.plugins ?? []).map((dir) => ({ dir: resolve(where.cwd, dir) })),
    ...enabled.candidates,
  ];
  const out: LoadedPlugin[] = [];
  const problems = enabled.problems;
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const plugin = await loadPlugin(candidate, where);
    if (!("root" in plugin)) {
      problems.push(...plugin.problems);
      continue;
    }
    // One folder, one load: named and enabled both, it runs once.
    if (seen.has(plugin.root)) continue;
    seen.add(plugin.root);
    out.push(plugin);
  }
  return { loaded: out, problems };
}

function mergeOptions(settings: HookSettings, file: LoadedFile): void {
  const options = settings.options as Record<string, unknown>;
  for (const key of SETTINGS_OPTION_KEYS) {
    const value = (file.options as Record<string, unknown>)[key];
    if (value !== undefined && options[key] === undefined) {
      options[key] = value;
      settings.optionSources[key] = file.info.path;
    }
  }
  if (file.disableAllHooks !== undefined && settings.options.disableAllHooks === undefined) {
    settings.options.disableAllHooks = file.disableAllHooks;
    settings.optionSources.disableAllHooks = file.info.path;
  }
}

/** `strictPluginOnlyCustomization` with `mcp`: only plugins' and managed files' servers stay. */
function keepPluginServers(settings: HookSettings): void {
  const file = settings.managedPolicy?.strictPluginOnlyCustomization?.file ?? "";
  settings.mcpServers = (settings.mcpServers ?? []).filter((server) => {
    if (server.scope === "plugin" || server.scope === "managed") return true;
    settings.problems.push({
      file: server.source,
      path: server.path,
      message: `MCP server "${server.name}" is not used: a managed "strictPluginOnlyCustomization" (${file}) keeps MCP servers to plugins and managed settings`,
      severity: "warning",
    });
    return false;
  });
}

/** The managed policy and the http policy lists every file contributes to. */
function applyPolicy(
  settings: HookSettings,
  loaded: readonly LoadedFile[],
  problems: readonly SettingsProblem[],
): void {
  settings.problems.unshift(...problems);
  const files = loaded.map((f) => ({ ...f.info, policy: f.policy }));
  const policy = managedPolicy(files);
  if (Object.keys(policy).length > 0) settings.managedPolicy = policy;
  const allowedUrls = policyList("allowedHttpHookUrls", policy, files);
  const allowedEnvVars = policyList("httpHookAllowedEnvVars", policy, files);
  const allowedSecrets = policyList("commandHookAllowedSecrets", policy, files);
  if (allowedSecrets) settings.commandHookAllowedSecrets = allowedSecrets;
  if (allowedUrls || allowedEnvVars) {
    settings.httpHookPolicy = {
      ...(allowedUrls ? { allowedUrls } : {}),
      ...(allowedEnvVars ? { allowedEnvVars } : {}),
    };
  }
}
