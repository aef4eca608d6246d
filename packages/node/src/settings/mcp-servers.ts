import type { SettingsScope } from "./hook-settings.js";

/** An MCP server started as a process, speaking MCP on its stdin and stdout. */
export interface McpStdioServerConfig {
  type: "stdio";
  command: string;
  args: string[];
  /** Added to the environment the server inherits (which never includes `A3S_TOKEN`). */
  env: Record<string, string>;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  type: "http";
  url: string;
  headers: Record<string, string>;
}

/** One entry of `mcpServers`, as loaded. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A configured server and where it was configured. */
export interface LoadedMcpServer {
  name: string;
  config: McpServerConfig;
  /** The file it came from (`.mcp.json` or a settings file). */
  source: string;
  /** Its JSON path there: `mcpServers.github`. */
  path: string;
  scope: SettingsScope;
  /** False for project servers the user has not trusted: they are never started. */
  trusted: boolean;
}
