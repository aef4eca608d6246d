import type { CommandHookDefinition } from "./command/command-definition.js";
import { commandHookType } from "./command/command-type.js";
import type { SettingsHandler } from "./handler.js";
import type { HookCommonFields } from "./hook-common.js";
import type { HttpHandlerDeps, HttpHookDefinition } from "./http/http-hook.js";
import { httpHookType } from "./http/http-type.js";
import type { McpServerPool, McpToolHookDefinition } from "./mcp-tool/mcp-tool-hook.js";
import { mcpToolHookType } from "./mcp-tool/mcp-tool-type.js";
import type { HookModelClient } from "./model/model-client.js";
import { agentHookType, promptHookType } from "./model/model-types.js";
import type {
  AgentHookDefinition,
  HookAgentRunner,
  PromptHookDefinition,
} from "./model/prompt-hook.js";

/**
 * Every hook type of a settings file, once, in the order messages list them. The type names,
 * the schema's shapes, the default timeouts, the listings' one-line form and the handler
 * factories below are all read from here: a new type is its folder and one line here.
 */
export const HOOK_TYPES = {
  command: commandHookType,
  http: httpHookType,
  prompt: promptHookType,
  agent: agentHookType,
  mcp_tool: mcpToolHookType,
  // The public union above names the same types: a record missing or extra fails to compile.
} as const satisfies { readonly [T in SettingsHookType]: { readonly type: T } };

/** The hook types of a settings file. */
export type SettingsHookType = "command" | "http" | "prompt" | "agent" | "mcp_tool";

/** Every hook type, in the order messages list them. */
export const SETTINGS_HOOK_TYPES = Object.keys(HOOK_TYPES) as readonly SettingsHookType[];

/**
 * What one hook of a given type is defined by, by its `type`:
 * `SettingsHookDefinitions["http"]` is an http hook's definition. The types other than
 * `command` carry the common fields, and `command`/`args` marked absent so code written for
 * command hooks (`hook.definition.command`) still compiles and reads `undefined` for them.
 */
export interface SettingsHookDefinitions {
  /** A shell command or argv run per event (`type` absent or `"command"`). */
  command: CommandHookDefinition;
  /** A JSON POST of the hook input to a URL. */
  http: HttpHookDefinition & HookCommonFields & { command?: undefined; args?: undefined };
  /** One question to a model about the hook input. */
  prompt: PromptHookDefinition & HookCommonFields & { command?: undefined; args?: undefined };
  /** A model that may read files before it answers. */
  agent: AgentHookDefinition & HookCommonFields & { command?: undefined; args?: undefined };
  /** A call of a tool on a configured MCP server. */
  mcp_tool: McpToolHookDefinition & HookCommonFields & { command?: undefined; args?: undefined };
}

/** The definition of a settings-file hook of any type; `type` tells which. */
export type SettingsHookDefinition = SettingsHookDefinitions[SettingsHookType];

/** The fields of each type other than `command` (whose shape the settings schema spreads itself). */
export const hookTypeShapes = {
  http: HOOK_TYPES.http.shape,
  prompt: HOOK_TYPES.prompt.shape,
  agent: HOOK_TYPES.agent.shape,
  mcp_tool: HOOK_TYPES.mcp_tool.shape,
} as const;

/** Seconds a hook of each type may take when it sets no `timeout` (Claude Code's defaults, but 60 for command hooks). */
export const DEFAULT_TIMEOUT_SECONDS = Object.fromEntries(
  Object.entries(HOOK_TYPES).map(([type, record]) => [type, record.defaultTimeoutSeconds]),
) as Readonly<Record<SettingsHookType, number>>;

/** The type of a definition (`command` when it sets none). */
export function hookTypeOf(definition: SettingsHookDefinition): SettingsHookType {
  return definition.type ?? "command";
}

/** A readable one-line form of a definition of any type, for listings. */
export function describeDefinition(definition: SettingsHookDefinition): string {
  const record = HOOK_TYPES[hookTypeOf(definition)] as AnyHookType;
  return record.describe(definition);
}

/** A record seen through no particular type (the registry picks it by the definition's `type`). */
interface AnyHookType {
  describe(definition: SettingsHookDefinition): string;
  create:
    | ((definition: SettingsHookDefinition, deps: SettingsHandlerDeps) => SettingsHandler)
    | undefined;
}

/** What the handlers of types other than `command` need from the host. */
export interface SettingsHandlerDeps {
  /** The project directory (an agent verifier's tools are confined to it). */
  projectDir: string;
  /** How http hooks run: environment, policy, request timer. */
  http?: HttpHandlerDeps;
  /**
   * Bytes of an answer read (an http response body, an MCP tool's text), as for a command
   * hook's stdout; the over-cap rule is the command hook's. Default 1 MiB.
   */
  maxOutputBytes?: number;
  /** The model `prompt` and `agent` hooks ask. Without one they cannot run here. */
  modelClient?: HookModelClient | undefined;
  /** The host's own agent for `agent` hooks; without one the built-in verifier runs on `modelClient`. */
  agentRunner?: HookAgentRunner | undefined;
  /** The MCP servers `mcp_tool` hooks call. Without them they cannot run here. */
  mcpServers?: McpServerPool | undefined;
  /** The hook's name, for messages. */
  name?: string;
}

/**
 * The handler of a settings-file hook of any type but `command` (which runs through
 * `CommandHook`): picks the type's factory. Throws `INVALID_CONFIG` naming the hook when the
 * type cannot run in this host (no model for `prompt`, no such MCP server for `mcp_tool`).
 */
export function createSettingsHandler(
  definition: Exclude<SettingsHookDefinition, CommandHookDefinition>,
  deps: SettingsHandlerDeps,
): SettingsHandler {
  const create = (HOOK_TYPES[definition.type] as AnyHookType).create;
  // Only `command` has no factory, and the type above leaves it out.
  if (!create) throw new Error(`${definition.type}: registers through CommandHook`);
  return create(definition, deps);
}
