/**
 * Where settings came from, as a load reports it: a hook's scope, the plugin it came with, the
 * MCP servers and managed policy keys read beside the hooks, and the project scripts the trust
 * hash covers. Kept apart from `hook-settings.ts` and the readers that fill these records, so
 * neither has to import the other's types.
 */
import type { McpServerEntry } from "../handlers/mcp-tool/mcp-server-config.js";

/**
 * Where a hook came from, which decides whether it runs:
 * - `project`: a file inside the working directory (a cloned repository controls it): runs only
 *   once the project is trusted
 * - `user`: a file in the home directory
 * - `explicit`: a file the user named (`--settings`, `files`)
 * - `frontmatter`: a skill's or subagent's markdown file, vouched for by the host
 * - `managed`: the system-wide policy file an administrator deploys; always trusted, and its
 *   options win over every other file's
 * - `plugin`: a plugin's `hooks/hooks.json` (or its manifest); trusted with the plugin, which runs
 *   when the user named its folder or a trusted settings file enables it
 */
export type SettingsScope = "managed" | "project" | "user" | "explicit" | "frontmatter" | "plugin";

/** The managed-only and policy keys a managed file may set, with the file that set each. */
export interface ManagedPolicy {
  /** Only hooks from managed files run. */
  allowManagedHooksOnly?: { value: boolean; file: string };
  /** URL patterns http hooks may call; a managed value cannot be widened by any other file. */
  allowedHttpHookUrls?: { value: string[]; file: string };
  /** Variables http hooks may put in headers; a managed value cannot be widened by any other file. */
  httpHookAllowedEnvVars?: { value: string[]; file: string };
  /** Host secrets command hooks still inherit; a managed value cannot be widened by any other file. */
  commandHookAllowedSecrets?: { value: string[]; file: string };
  /**
   * Claude Code's `strictPluginOnlyCustomization`: the surfaces (`skills`, `agents`, `hooks`,
   * `mcp`) only plugins and managed settings may customize; `true` in the file means all four.
   */
  strictPluginOnlyCustomization?: { value: PluginOnlySurface[]; file: string };
}

/** A surface `strictPluginOnlyCustomization` reserves for plugins and managed settings. */
export type PluginOnlySurface = "skills" | "agents" | "hooks" | "mcp";
/** A configured server and where it was configured. */
export interface LoadedMcpServer extends McpServerEntry {
  /** The file it came from (`.mcp.json` or a settings file). */
  source: string;
  /** Its JSON path there: `mcpServers.github`. */
  path: string;
  /** Which kind of file configured it (`project`, `user`, `managed`, …). */
  scope: SettingsScope;
}

/** The plugin a hook or MCP server came with. */
export interface PluginOrigin {
  /** The plugin's name: its manifest's `name`, else its folder's name. */
  name: string;
  /** Its id: `name@marketplace` for an installed plugin, `name@inline` for a folder named to the loader. */
  id: string;
  /** The plugin's folder (real path): `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  /** Its persistent data folder, `~/.claude/plugins/data/<id>`: `${CLAUDE_PLUGIN_DATA}`. */
  dataDir: string;
}

/** A project file a trusted hook runs, as the trust hash records it. */
export interface TrustedScript {
  /** Its path relative to the project, as the hook names it. */
  path: string;
  /** `sha256:<hex>` of its content, `absent` when there is no such file, `too large` past 8 MiB. */
  hash: string;
}
