/**
 * Whether a project's settings are trusted: the hash `a3s-hooks trust` records (what the project's
 * files set and what their hooks run), compared with the trust store's, and the hooks trusted one
 * by one.
 */
import { relative } from "node:path";
import { hookFingerprint } from "./hook-fingerprint.js";
import type { ProjectTrustState, SettingsHook } from "./hook-settings.js";
import { canonicalJson } from "./json-text.js";
import type { McpJsonFile } from "./mcp-servers.js";
import { projectFolders, projectScripts, type TrustedScript } from "./project-scripts.js";
import { holdsSettings, type LoadedFile } from "./settings-file.js";
import { hashDefinitions, readTrustStore, type TrustStore } from "./trust-store.js";

/** What the trust store says of the project's files: trusted or not, and what is asked of it. */
export interface ProjectTrust {
  state: ProjectTrustState;
  store: TrustStore;
  storeProblem: string | undefined;
  /** The project sets something (hooks, options, servers, plugins): trust is asked for. */
  hasSettings: boolean;
  /** The untrusted project hooks the user trusted one by one. */
  hookTrust: Set<SettingsHook>;
}

export async function projectTrust(
  loaded: readonly LoadedFile[],
  mcpJson: McpJsonFile | undefined,
  projectDir: string,
  home: string,
): Promise<ProjectTrust> {
  const project = loaded.filter((f) => f.info.scope === "project" && f.info.loaded);
  const hooks = project.flatMap((f) => f.hooks);
  const { hash, scripts } = await projectHash(project, hooks, mcpJson, projectDir);
  const hasSettings = mcpJson?.raw !== undefined || project.some(holdsSettings);
  const { store, problem } = await readTrustStore(home);
  const entry = Object.hasOwn(store.projects, projectDir) ? store.projects[projectDir] : undefined;
  const trusted = !hasSettings || entry?.hash === hash;
  const state: ProjectTrustState = {
    dir: projectDir,
    hash,
    trusted,
    hooks: hooks.length,
    changed: entry !== undefined && entry.hash !== hash,
    scripts,
    options: projectOptions(project),
  };
  const hookTrust = await trustedOneByOne(store, trusted ? [] : hooks, projectDir);
  return { state, store, storeProblem: problem, hasSettings, hookTrust };
}

/** The hash trust records: what the project's files set and what their hooks run. */
async function projectHash(
  project: readonly LoadedFile[],
  hooks: readonly SettingsHook[],
  mcpJson: McpJsonFile | undefined,
  projectDir: string,
): Promise<{ hash: string; scripts: TrustedScript[] }> {
  // Trust covers what the hooks run: the project files their commands name, and the folders
  // holding the settings (a `.claude` swapped for a link to a copy is not what was trusted).
  const scripts = hooks.length > 0 ? await projectScripts(hooks, projectDir) : [];
  const folders = hooks.length > 0 ? await projectFolders(projectDir) : undefined;
  // MCP servers join the hash only when there are some, so trust given before stays valid.
  const hash = hashDefinitions([
    ...(folders ? [{ runs: { scripts, folders } }] : []),
    // Another agent's file that holds no hooks runs nothing (a Codex `config.toml` that only
    // sets a model): its mere presence does not ask for trust again.
    ...project
      .filter((f) => f.info.format === undefined || f.hooks.length > 0)
      .map((f) => ({
        file: relative(projectDir, f.info.path),
        hooks: f.hooks.map((h) => ({
          event: h.event,
          matcher: h.matcher ?? null,
          path: h.path,
          definition: h.definition,
          // Another agent's event and matcher decide when it runs: a change is a change.
          ...(h.origin ? { origin: h.origin } : {}),
        })),
        options: f.options,
        disableAllHooks: f.disableAllHooks ?? null,
        ...(f.mcpServersRaw !== undefined ? { mcpServers: f.mcpServersRaw } : {}),
        ...(f.enabledPlugins !== undefined ? { enabledPlugins: f.enabledPlugins } : {}),
      })),
    ...(mcpJson?.raw !== undefined ? [{ file: ".mcp.json", mcpServers: mcpJson.raw }] : []),
  ]);
  return { hash, scripts };
}

/** Why an untrusted project's settings are ignored, before what is ignored. */
export function notTrusted(state: ProjectTrustState): string {
  return state.changed
    ? "this project's hook settings changed since you trusted them"
    : "this project's hook settings are not trusted yet";
}

/**
 * The untrusted project hooks the user trusted one by one (`a3s-hooks trust --hook ID`): the id
 * is recorded, and the project files the hook runs are still what they were then.
 */
async function trustedOneByOne(
  store: TrustStore,
  hooks: readonly SettingsHook[],
  projectDir: string,
): Promise<Set<SettingsHook>> {
  const out = new Set<SettingsHook>();
  const entries = store.trustedHooks ?? {};
  for (const hook of hooks) {
    const id = hookFingerprint(hook);
    if (!Object.hasOwn(entries, id)) continue;
    const scripts = await projectScripts([hook], projectDir);
    if (canonicalJson(scripts) === canonicalJson(entries[id]!.scripts)) out.add(hook);
  }
  return out;
}

/** The options the project's files set, each from the first that sets it (what trust covers). */
function projectOptions(files: readonly LoadedFile[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const file of files) {
    for (const [key, value] of Object.entries(file.options)) {
      if (value !== undefined && out[key] === undefined) out[key] = value;
    }
    if (file.disableAllHooks !== undefined && out.disableAllHooks === undefined) {
      out.disableAllHooks = file.disableAllHooks;
    }
  }
  return out;
}
