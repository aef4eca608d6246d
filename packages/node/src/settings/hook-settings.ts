import type { HookEventName, ToolMatcher } from "@a3s-lab/hooks-core";
import type { SettingsHookDefinition, SettingsHookType } from "../handlers/settings-handler.js";
import type {
  LoadedMcpServer,
  ManagedPolicy,
  PluginOrigin,
  SettingsScope,
  TrustedScript,
} from "./settings-origins.js";
import type { SettingsProblem } from "./settings-problem.js";
import type { SettingsOptions } from "./settings-schema.js";

export type { SettingsScope } from "./settings-origins.js";

/** The other agents whose hook files are read here (see `HOOK_FORMATS`). */
export type HookFormatName = "cursor" | "gemini" | "copilot" | "codex" | "windsurf" | "kiro";

/**
 * Where a hook from another agent's file came from, in that agent's words: its format, its
 * event name (Cursor's `beforeShellExecution`), and its own matcher, tested against the tool
 * name that agent would use (Gemini CLI's `run_shell_command`).
 */
export interface HookOrigin {
  /** The agent's format: `cursor`, `gemini`, `copilot`, `codex`, `windsurf` or `kiro`. */
  format: HookFormatName;
  /** The event as that agent names it: `beforeShellExecution`, `BeforeTool`. */
  event: string;
  /** The hook's own matcher, in that agent's tool names (Gemini CLI's `run_shell_command`). */
  matcher?: string;
}

/** One hook found in a settings file, of any type. */
export interface SettingsHook {
  /** `<file>#<path>`: unique within one load. */
  id: string;
  /** The event it hooks. */
  event: HookEventName;
  /** Left out: every firing of the event. */
  matcher?: string | ToolMatcher;
  /**
   * Claude Code's `if`: a permission rule (`Bash(git *)`, `Edit(*.ts)`) the tool call must
   * match too, tested before anything starts. Tool events only: elsewhere the hook never runs.
   */
  if?: string;
  /** The hook's type: `command` (also when the file sets none), `http`, `prompt`, `agent` or `mcp_tool`. */
  type: SettingsHookType;
  /**
   * Its definition as read (common fields included); `type` tells which shape. A command
   * definition has no `type` when the file set none.
   */
  definition: SettingsHookDefinition;
  /** The Rust-agent format's key, the definition's `name`, or the command. */
  name: string;
  /** The file it came from. */
  source: string;
  /** Its JSON path in that file: `hooks.PreToolUse[0].hooks[1]`. */
  path: string;
  /**
   * Which kind of file it came from: `managed`, `project`, `user`, `explicit` (a file named to
   * the loader) or `frontmatter` (a skill's or subagent's).
   */
  scope: SettingsScope;
  /** False for project hooks the user has not trusted (yet, or since they changed). */
  trusted: boolean;
  /** The plugin it came with (scope `plugin`): its command gets `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` (and `PLUGIN_ROOT`, `PLUGIN_DATA`). */
  plugin?: PluginOrigin;
  /**
   * Set for a hook read from another agent's file (Cursor, Gemini CLI): its script gets that
   * agent's stdin and its answer is read by that agent's rules. Absent: Claude Code's.
   */
  origin?: HookOrigin;
  /**
   * True when the user turned this hook off (`a3s-hooks disable ID`): it is listed but does not
   * run. Never set on a managed hook.
   */
  disabled?: boolean;
}

/** A file that was looked for. */
export interface SettingsFileInfo {
  /** The file's absolute path. */
  path: string;
  /** Which kind of file it is: `managed`, `project`, `user`, `explicit` or `frontmatter`. */
  scope: SettingsScope;
  /** False when the file is not there (fine for the default locations). */
  exists: boolean;
  /** True when it was read and parsed (it may still have problems in parts). */
  loaded: boolean;
  /** False for a project file whose hooks you have not trusted yet (they do not run). */
  trusted: boolean;
  /** How many hooks it defines. */
  hooks: number;
  /** The agent whose file format it is, when not Claude Code's (or ours). */
  format?: HookFormatName;
}

/** The trust state of the project's own settings files. */
export interface ProjectTrustState {
  /** The project directory (the real path of `cwd`). */
  dir: string;
  /** The hash of the project's hook definitions and options, as `trust` records it. */
  hash: string;
  /** True when `trust` recorded this exact hash: the project's hooks run. */
  trusted: boolean;
  /** Hooks defined by project files. */
  hooks: number;
  /** True when the project was trusted before, with other definitions. */
  changed: boolean;
  /** The project files its command hooks run, with their hashes (part of `hash`). */
  scripts?: TrustedScript[];
  /** The options the project's files set (`defaultTimeout`, `failBehavior`, …; part of `hash`). */
  options?: Record<string, unknown>;
}

/** Everything `loadHookSettings` found. */
export interface HookSettings {
  /** Every hook, in precedence order of the files, then document order. */
  hooks: SettingsHook[];
  /** The scalar settings, each from the highest-precedence (trusted) file that sets it. */
  options: SettingsOptions;
  /** Which file each option came from. */
  optionSources: Partial<Record<keyof SettingsOptions, string>>;
  /** Everything wrong, file and JSON path first; the rest still loaded. */
  problems: SettingsProblem[];
  /** Every file looked at, found or not. */
  files: SettingsFileInfo[];
  /**
   * The MCP servers `mcp_tool` hooks may call (`mcpServers` of `.mcp.json` and the settings
   * files), one per name, highest precedence first. Untrusted project servers are never started.
   */
  mcpServers?: LoadedMcpServer[];
  /** Present when `cwd` was given. */
  project?: ProjectTrustState;
  /** The plugins whose hooks and MCP servers were loaded. */
  plugins?: PluginOrigin[];
  /** What the managed (system-wide) files decide, with the file behind each key; absent when they set nothing. */
  managedPolicy?: ManagedPolicy;
  /**
   * `allowedHttpHookUrls` and `httpHookAllowedEnvVars` for hooks that are not managed: a managed
   * file's list when one sets it (no other file can widen it), else the user's and explicit
   * files' entries together. A project's files never set them; managed hooks answer to the
   * managed lists only.
   */
  httpHookPolicy?: { allowedUrls?: string[]; allowedEnvVars?: string[] };
  /**
   * `commandHookAllowedSecrets` for hooks that are not managed: the host secrets their command
   * hooks still inherit (none by default). Set like the http lists: a managed file's list, else
   * the user's and explicit files' together; never by a project's files.
   */
  commandHookAllowedSecrets?: string[];
  /** The directories the settings were loaded for, to show paths relative to them. */
  cwd?: string;
  /** The home directory the user settings were read from. */
  home?: string;
}

/** Settings with nothing in them. */
export function emptySettings(): HookSettings {
  return { hooks: [], options: {}, optionSources: {}, problems: [], files: [] };
}
