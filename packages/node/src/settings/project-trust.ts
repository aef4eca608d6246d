import { homedir } from "node:os";
import { resolve } from "node:path";
import type { SettingsHook } from "./hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";
import type { McpServerConfig } from "./mcp-servers.js";
import type { TrustedScript } from "./project-scripts.js";
import type { SettingsProblem } from "./settings-problem.js";
import { readTrustStore, writeTrustStore } from "./trust-store.js";

/** Which project, and whose trust store. */
export interface ProjectTrustOptions {
  /** The project's working directory. */
  cwd: string;
  /** The user's home directory (the store is `<home>/.config/a3s-hooks/trusted.json`). Default `os.homedir()`. */
  home?: string;
}

/** What `trustProject` recorded. */
export interface TrustedProject {
  /** The project directory (real path). */
  dir: string;
  /** The hash now recorded. */
  hash: string;
  /** The hash recorded before, when the project was trusted with other definitions. */
  previousHash?: string;
  /** The project's hooks that are now trusted. */
  hooks: SettingsHook[];
  /** Problems in the project's files (their broken parts stay off). */
  problems: SettingsProblem[];
  /** The trust store file. */
  storePath: string;
  /** The project files its command hooks run, with the hashes now trusted. */
  scripts: TrustedScript[];
  /** The project's engine options now trusted (`defaultTimeout`, `failBehavior`, …). */
  options: Record<string, unknown>;
  /** The project's MCP servers now trusted: name and what starts it (command or URL). */
  mcpServers: { name: string; runs: string }[];
}

/**
 * Trust the hook definitions a project's own settings files hold right now: record their hash
 * in the user's trust store. Any later change to them needs trust again.
 *
 * @example
 * ```ts
 * const trusted = await trustProject({ cwd: "/path/to/repo" });
 * console.log(`trusted ${trusted.hooks.length} hooks (${trusted.hash})`);
 * ```
 */
export async function trustProject(options: ProjectTrustOptions): Promise<TrustedProject> {
  const home = resolve(options.home ?? homedir());
  const settings = await loadHookSettings({ cwd: options.cwd, home, managedSettings: [] });
  const project = settings.project!;
  const { store } = await readTrustStore(home);
  const before = Object.hasOwn(store.projects, project.dir)
    ? store.projects[project.dir]
    : undefined;
  const projectHooks = settings.hooks.filter((h) => h.scope === "project");
  store.projects[project.dir] = {
    hash: project.hash,
    trustedAt: new Date().toISOString(),
    hooks: projectHooks.length,
  };
  const storePath = await writeTrustStore(home, store);
  const projectFiles = new Set(
    settings.files.filter((f) => f.scope === "project").map((f) => f.path),
  );
  const result: TrustedProject = {
    dir: project.dir,
    hash: project.hash,
    hooks: projectHooks.map((h) => ({ ...h, trusted: true })),
    problems: settings.problems.filter((p) => projectFiles.has(p.file) && p.path !== ""),
    storePath,
    scripts: project.scripts ?? [],
    options: project.options ?? {},
    mcpServers: (settings.mcpServers ?? [])
      .filter((s) => s.scope === "project")
      .map((s) => ({ name: s.name, runs: describeServer(s.config) })),
  };
  if (before && before.hash !== project.hash) result.previousHash = before.hash;
  return result;
}

/** Forget a project's trust. Returns false when it was not trusted. */
export async function untrustProject(options: ProjectTrustOptions): Promise<boolean> {
  const home = resolve(options.home ?? homedir());
  const settings = await loadHookSettings({
    cwd: options.cwd,
    home,
    defaults: true,
    managedSettings: [],
  });
  const dir = settings.project!.dir;
  const { store } = await readTrustStore(home);
  if (!Object.hasOwn(store.projects, dir)) return false;
  delete store.projects[dir];
  await writeTrustStore(home, store);
  return true;
}

/**
 * True when the project's own hook settings may run: it has none, or the user trusted exactly
 * the definitions it holds now.
 */
export async function isProjectTrusted(options: ProjectTrustOptions): Promise<boolean> {
  const home = resolve(options.home ?? homedir());
  const settings = await loadHookSettings({ cwd: options.cwd, home, managedSettings: [] });
  return settings.project?.trusted ?? true;
}

function describeServer(config: McpServerConfig): string {
  return config.type === "http" ? config.url : [config.command, ...config.args].join(" ");
}
