import { type CommandHookDefinition, describeCommand } from "./command/command-definition.js";
import type { SettingsHandler } from "./handler.js";
import type { HookCommonFields } from "./hook-common.js";
import {
  createHttpHandler,
  HTTP_DEFAULT_TIMEOUT_SECONDS,
  type HttpHandlerDeps,
  type HttpHookDefinition,
  httpHookShape,
} from "./http/http-hook.js";
import {
  createMcpToolHandler,
  MCP_TOOL_DEFAULT_TIMEOUT_SECONDS,
  type McpServerPool,
  type McpToolHookDefinition,
  mcpToolHookShape,
} from "./mcp-tool/mcp-tool-hook.js";
import { createAgentHandler } from "./model/agent-hook.js";
import type { HookModelClient } from "./model/model-client.js";
import {
  AGENT_DEFAULT_TIMEOUT_SECONDS,
  type AgentHookDefinition,
  agentHookShape,
  createPromptHandler,
  type HookAgentRunner,
  PROMPT_DEFAULT_TIMEOUT_SECONDS,
  type PromptHookDefinition,
  promptHookShape,
} from "./model/prompt-hook.js";

/** The hook types of a settings file. */
export type SettingsHookType = "command" | "http" | "prompt" | "agent" | "mcp_tool";

/** Every hook type, in the order messages list them. */
export const SETTINGS_HOOK_TYPES: readonly SettingsHookType[] = [
  "command",
  "http",
  "prompt",
  "agent",
  "mcp_tool",
];

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

/** The fields of each type other than `command` (whose shape lives with the command executor). */
export const hookTypeShapes = {
  http: httpHookShape,
  prompt: promptHookShape,
  agent: agentHookShape,
  mcp_tool: mcpToolHookShape,
} as const;

/** Seconds a hook of each type may take when it sets no `timeout` (Claude Code's defaults, but 60 for command hooks). */
export const DEFAULT_TIMEOUT_SECONDS: Readonly<Record<SettingsHookType, number>> = {
  // The A3S default since the first release: a hung command holds the agent up for one minute, not ten.
  command: 60,
  http: HTTP_DEFAULT_TIMEOUT_SECONDS,
  prompt: PROMPT_DEFAULT_TIMEOUT_SECONDS,
  agent: AGENT_DEFAULT_TIMEOUT_SECONDS,
  mcp_tool: MCP_TOOL_DEFAULT_TIMEOUT_SECONDS,
};

/** The type of a definition (`command` when it sets none). */
export function hookTypeOf(definition: SettingsHookDefinition): SettingsHookType {
  return definition.type ?? "command";
}

/** A readable one-line form of a definition of any type, for listings. */
export function describeDefinition(definition: SettingsHookDefinition): string {
  switch (definition.type) {
    case "http":
      return `POST ${definition.url}`;
    case "prompt":
    case "agent":
      return `${definition.type}: ${oneLine(definition.prompt)}`;
    case "mcp_tool":
      return `mcp_tool ${definition.server}/${definition.tool}`;
    default:
      return describeCommand(definition as CommandHookDefinition);
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
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
  const name = deps.name;
  switch (definition.type) {
    case "http":
      return createHttpHandler(
        definition,
        deps.maxOutputBytes !== undefined
          ? { ...deps.http, maxResponseBytes: deps.maxOutputBytes }
          : deps.http,
      );
    case "prompt":
      return createPromptHandler(definition, { modelClient: deps.modelClient, ...named(name) });
    case "agent":
      return createAgentHandler(definition, {
        modelClient: deps.modelClient,
        agentRunner: deps.agentRunner,
        projectDir: deps.projectDir,
        ...named(name),
      });
    case "mcp_tool":
      return createMcpToolHandler(definition, {
        servers: deps.mcpServers ?? NO_SERVERS,
        name,
        ...(deps.maxOutputBytes !== undefined ? { maxOutputBytes: deps.maxOutputBytes } : {}),
      });
  }
}

const named = (name: string | undefined) => (name !== undefined ? { name } : {});

/** The pool of a host that configured no MCP servers: every `mcp_tool` hook is refused at load. */
const NO_SERVERS: McpServerPool = {
  has: () => false,
  callTool: () => Promise.reject(new Error("no MCP servers are configured")),
  close: async () => {},
  [Symbol.asyncDispose]: async () => {},
};
