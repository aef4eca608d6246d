/** An MCP server started as a process, speaking MCP on its stdin and stdout. */
export interface McpStdioServerConfig {
  /** Always `"stdio"` (also when the file sets no `type`). */
  type: "stdio";
  /** The program to start, `${VAR}` expanded. */
  command: string;
  /** Its arguments, `${VAR}` expanded. */
  args: string[];
  /** Added to the environment the server inherits (which never holds the host's secrets). */
  env: Record<string, string>;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  /** Always `"http"`. */
  type: "http";
  /** The server's MCP endpoint, `${VAR}` expanded. */
  url: string;
  /** Sent with every request, `${VAR}` expanded. */
  headers: Record<string, string>;
}

/** One entry of `mcpServers`, as loaded. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A configured server, as the pool that starts it needs it. */
export interface McpServerEntry {
  /** The server's name, as `mcp_tool` hooks give it. */
  name: string;
  /** How to reach it. */
  config: McpServerConfig;
  /** False for project servers the user has not trusted: they are never started. */
  trusted: boolean;
}
