import { mkdir, realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, join, resolve } from "node:path";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import { readRegularFile } from "../workspace/read-regular-file.js";
import type { SettingsHook, SettingsScope } from "./hook-settings.js";
import { parseJsonText } from "./json-text.js";
import { type LoadedMcpServer, MCP_JSON_FILE, readMcpServers } from "./mcp-servers.js";
import { parseHooksBlock } from "./parse-hooks-block.js";
import type { PluginOrigin } from "./settings-origins.js";
import type { SettingsProblem } from "./settings-problem.js";

export type { PluginOrigin } from "./settings-origins.js";

/** What one plugin folder contributes. */
export interface LoadedPlugin extends PluginOrigin {
  hooks: SettingsHook[];
  mcpServers: LoadedMcpServer[];
  problems: SettingsProblem[];
}

/** A plugin to load: a folder and how it is known. */
export interface PluginCandidate {
  dir: string;
  /** `name@marketplace`, or undefined for a folder named to the loader (its id ends `@inline`). */
  id?: string;
}

/** Where Claude Code records the plugins it installed (relative to the home directory). */
export const INSTALLED_PLUGINS_FILE = ".claude/plugins/installed_plugins.json";
/** Where plugin data folders live (relative to the home directory). */
export const PLUGIN_DATA_DIR = ".claude/plugins/data";

const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `${CLAUDE_PLUGIN_DATA}`'s folder name: the id with anything but letters, digits, `_` and `-` made `-`. */
export function pluginDataName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "-");
}

/**
 * The variables a plugin's hooks and MCP servers get: as Claude Code names them, and as the
 * Open Plugins format does (`PLUGIN_ROOT`, `PLUGIN_DATA`), with the same values.
 */
export function pluginVariables(plugin: PluginOrigin): Record<string, string> {
  return {
    CLAUDE_PLUGIN_ROOT: plugin.root,
    CLAUDE_PLUGIN_DATA: plugin.dataDir,
    PLUGIN_ROOT: plugin.root,
    PLUGIN_DATA: plugin.dataDir,
  };
}

/**
 * Where a plugin's manifest may be, first found wins: Claude Code's, then the Open Plugins
 * format's (`.plugin/plugin.json`, and `plugin.json` at the root in its later drafts).
 */
const MANIFESTS = [".claude-plugin/plugin.json", ".plugin/plugin.json", "plugin.json"] as const;

/** The name a plugin's MCP server goes by outside the plugin, as in Claude Code. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin:${plugin}:${server}`;
}

async function readJsonObject(
  path: string,
  maxBytes: number,
  problems: SettingsProblem[],
): Promise<Record<string, unknown> | undefined> {
  const fail = (message: string) => {
    problems.push({ file: path, path: "", message, severity: "error" });
    return undefined;
  };
  let text: string;
  try {
    const read = await readRegularFile(path, maxBytes);
    if (typeof read !== "string") return fail(read.problem);
    text = read;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return fail(`cannot read: ${(error as Error).message}`);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return fail(`invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`);
  }
  const doc = parsed.value;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return fail(`expected a JSON object, got ${describeValue(doc)}`);
  }
  return doc as Record<string, unknown>;
}

/** A path a manifest gives, which must stay inside the plugin's folder. */
function inside(root: string, relativePath: string): string | undefined {
  if (isAbsolute(relativePath)) return undefined;
  const full = resolve(root, relativePath);
  return full === root || full.startsWith(`${root}/`) ? full : undefined;
}

/**
 * Load one plugin folder as Claude Code lays it out: `.claude-plugin/plugin.json` (optional; its
 * `name`, and `hooks` / `mcpServers` inline or as paths inside the plugin; an Open Plugins
 * manifest, `.plugin/plugin.json` or `plugin.json`, when there is none), `hooks/hooks.json`
 * (`{ "hooks": { Event: [...] } }`) and `.mcp.json`. Its hooks are trusted with the plugin (the
 * caller decided the plugin runs). Its MCP servers go by `plugin:<name>:<server>`; its
 * `mcp_tool` hooks that name one of them are pointed at it. `${CLAUDE_PLUGIN_ROOT}` and
 * `${CLAUDE_PLUGIN_DATA}` are expanded in the servers' configuration; command hooks get both in
 * their environment, where the shell expands them. The data folder is created when the plugin
 * has hooks or servers, which may use it.
 */
export async function loadPlugin(
  candidate: PluginCandidate,
  options: { home: string; maxBytes: number; env?: Readonly<Record<string, string | undefined>> },
): Promise<LoadedPlugin | { problems: SettingsProblem[] }> {
  const problems: SettingsProblem[] = [];
  const dirStat = await stat(candidate.dir).catch(() => undefined);
  if (!dirStat?.isDirectory()) {
    problems.push({
      file: candidate.dir,
      path: "",
      message: "plugin folder not found",
      severity: "error",
    });
    return { problems };
  }
  const root = await realpath(candidate.dir);
  let manifestPath = join(root, MANIFESTS[0]);
  let manifest: Record<string, unknown> | undefined;
  for (const where of MANIFESTS) {
    manifestPath = join(root, where);
    manifest = await readJsonObject(manifestPath, options.maxBytes, problems);
    if (manifest !== undefined || problems.length > 0) break;
  }
  manifest ??= {};
  let name = basename(root);
  if (manifest.name !== undefined) {
    if (typeof manifest.name === "string" && PLUGIN_NAME.test(manifest.name)) name = manifest.name;
    else
      problems.push({
        file: manifestPath,
        path: "name",
        message: `expected a plugin name (letters, digits, ".", "_" or "-"), got ${describeValue(manifest.name)}; the folder's name is used`,
        severity: "error",
      });
  }
  const id = candidate.id ?? `${name}@inline`;
  const plugin: PluginOrigin = {
    name,
    id,
    root,
    dataDir: join(options.home, PLUGIN_DATA_DIR, pluginDataName(id)),
  };
  const hooks: SettingsHook[] = [];
  const readHooks = (block: unknown, file: string, basePath: string[]) => {
    const parsed = parseHooksBlock(block, { file, scope: "plugin", trusted: true, basePath });
    problems.push(...parsed.problems);
    for (const key of Object.keys(parsed.options)) {
      problems.push({
        file,
        path: [...basePath, key].join("."),
        message: "a plugin's hooks cannot set options; ignored",
        severity: "warning",
      });
    }
    hooks.push(...parsed.hooks);
  };
  const readHooksFile = async (file: string) => {
    const doc = await readJsonObject(file, options.maxBytes, problems);
    if (doc?.hooks !== undefined) readHooks(doc.hooks, file, ["hooks"]);
  };
  await readHooksFile(join(root, "hooks", "hooks.json"));
  const manifestPaths = (key: "hooks" | "mcpServers"): string[] | undefined => {
    const value = manifest[key];
    const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
    if (list === undefined) return undefined;
    const out: string[] = [];
    list.forEach((p, i) => {
      const full = typeof p === "string" ? inside(root, p) : undefined;
      if (full) out.push(full);
      else
        problems.push({
          file: manifestPath,
          path: Array.isArray(value) ? `${key}[${i}]` : key,
          message: `expected a path inside the plugin, got ${describeValue(p)}`,
          severity: "error",
        });
    });
    return out;
  };
  const hookFiles = manifestPaths("hooks");
  if (hookFiles) for (const file of hookFiles) await readHooksFile(file);
  else if (manifest.hooks !== undefined) readHooks(manifest.hooks, manifestPath, ["hooks"]);

  const env = { ...(options.env ?? process.env), ...pluginVariables(plugin) };
  const servers: LoadedMcpServer[] = [];
  const readServers = (raw: unknown, file: string) => {
    const block = readMcpServers(raw, { file, scope: "plugin", trusted: true, env });
    problems.push(...block.problems);
    for (const server of block.servers) {
      if (server.config.type === "stdio") {
        server.config.env = { ...pluginVariables(plugin), ...server.config.env };
      }
      servers.push({ ...server, name: pluginServerName(name, server.name) });
    }
  };
  const mcpJsonPath = join(root, MCP_JSON_FILE);
  const mcpJson = await readJsonObject(mcpJsonPath, options.maxBytes, problems);
  if (mcpJson?.mcpServers !== undefined) readServers(mcpJson.mcpServers, mcpJsonPath);
  const serverFiles = manifestPaths("mcpServers");
  if (serverFiles) {
    for (const file of serverFiles) {
      const doc = await readJsonObject(file, options.maxBytes, problems);
      if (doc?.mcpServers !== undefined) readServers(doc.mcpServers, file);
    }
  } else if (manifest.mcpServers !== undefined) readServers(manifest.mcpServers, manifestPath);

  const own = new Set(servers.map((s) => s.name));
  for (const hook of hooks) {
    hook.plugin = plugin;
    const definition = hook.definition as { type?: unknown; server?: unknown };
    if (definition.type === "mcp_tool" && typeof definition.server === "string") {
      const scoped = pluginServerName(name, definition.server);
      if (own.has(scoped)) hook.definition = { ...hook.definition, server: scoped } as never;
    }
  }
  // Its scripts read CLAUDE_PLUGIN_DATA from their environment: the folder is there before they run.
  if (hooks.length > 0 || servers.length > 0) {
    await mkdir(plugin.dataDir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      problems.push({
        file: plugin.dataDir,
        path: "",
        message: `cannot create the plugin's data folder: ${(error as Error).message}`,
        severity: "warning",
      });
    });
  }
  return { ...plugin, hooks, mcpServers: servers, problems };
}

/** One settings file's `enabledPlugins`, with whether the file may decide. */
export interface EnabledPluginsSource {
  path: string;
  scope: SettingsScope;
  trusted: boolean;
  enabledPlugins?: Record<string, boolean>;
}

/** Read the `enabledPlugins` key of a settings file: `{ "name@marketplace": true | false }`. */
export function readEnabledPlugins(
  value: unknown,
  file: string,
  problems: SettingsProblem[],
): Record<string, boolean> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push({
      file,
      path: "enabledPlugins",
      message: `expected an object of "plugin@marketplace": true or false, got ${describeValue(value)}`,
      severity: "error",
    });
    return undefined;
  }
  const out: Record<string, boolean> = {};
  for (const [id, on] of Object.entries(value)) {
    if (typeof on === "boolean" && /^[^@\s]+@[^@\s]+$/.test(id)) out[id] = on;
    else
      problems.push({
        file,
        path: `enabledPlugins.${id}`,
        message: `expected "plugin@marketplace": true or false, got ${describeValue(on)}`,
        severity: "error",
      });
  }
  return out;
}

/**
 * The installed plugins the settings enable: for each `name@marketplace`, the first trusted
 * file (in precedence order) that names it decides; an untrusted project file decides nothing.
 * Each enabled plugin's folder is its `installPath` in Claude Code's `installed_plugins.json`;
 * one enabled but not installed is a warning.
 */
export async function enabledPluginCandidates(
  files: readonly EnabledPluginsSource[],
  options: { home: string; maxBytes: number },
): Promise<{ candidates: PluginCandidate[]; problems: SettingsProblem[] }> {
  const decided = new Map<string, { on: boolean; file: string }>();
  for (const f of files) {
    if (!f.trusted || !f.enabledPlugins) continue;
    for (const [id, on] of Object.entries(f.enabledPlugins)) {
      if (!decided.has(id)) decided.set(id, { on, file: f.path });
    }
  }
  const problems: SettingsProblem[] = [];
  const enabled = [...decided].filter(([, d]) => d.on);
  if (enabled.length === 0) return { candidates: [], problems };
  const registryPath = join(options.home, INSTALLED_PLUGINS_FILE);
  const registry = await readJsonObject(registryPath, options.maxBytes, problems);
  const installed = registry?.plugins;
  const candidates: PluginCandidate[] = [];
  for (const [id, { file }] of enabled) {
    const entry =
      installed !== null && typeof installed === "object" && Object.hasOwn(installed, id)
        ? (installed as Record<string, unknown>)[id]
        : undefined;
    // Version 2 keeps a list of installs per plugin, version 1 one object.
    const first = Array.isArray(entry) ? entry[0] : entry;
    const installPath = (first as { installPath?: unknown } | undefined)?.installPath;
    if (typeof installPath === "string" && isAbsolute(installPath)) {
      candidates.push({ dir: installPath, id });
    } else {
      problems.push({
        file,
        path: `enabledPlugins.${id}`,
        message: `plugin ${id} is enabled but not installed (not in ~/${INSTALLED_PLUGINS_FILE}); its hooks do not run`,
        severity: "warning",
      });
    }
  }
  return { candidates, problems };
}
