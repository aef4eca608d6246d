import type { HookType } from "../hook-type.js";
import {
  createMcpToolHandler,
  MCP_TOOL_DEFAULT_TIMEOUT_SECONDS,
  type McpServerPool,
  type McpToolHookDefinition,
  mcpToolHookShape,
} from "./mcp-tool-hook.js";

/** The pool of a host that configured no MCP servers: every `mcp_tool` hook is refused at load. */
const NO_SERVERS: McpServerPool = {
  has: () => false,
  callTool: () => Promise.reject(new Error("no MCP servers are configured")),
  close: async () => {},
  [Symbol.asyncDispose]: async () => {},
};

/** The `mcp_tool` hook type: a call of a tool on a configured MCP server. */
export const mcpToolHookType: HookType<
  "mcp_tool",
  McpToolHookDefinition,
  {
    mcpServers?: McpServerPool | undefined;
    maxOutputBytes?: number | undefined;
    name?: string | undefined;
  }
> = {
  type: "mcp_tool",
  shape: mcpToolHookShape,
  defaultTimeoutSeconds: MCP_TOOL_DEFAULT_TIMEOUT_SECONDS,
  describe: (d) => `mcp_tool ${d.server}/${d.tool}`,
  check: () => [],
  create: (d, deps) =>
    createMcpToolHandler(d, {
      servers: deps.mcpServers ?? NO_SERVERS,
      name: deps.name,
      ...(deps.maxOutputBytes !== undefined ? { maxOutputBytes: deps.maxOutputBytes } : {}),
    }),
};
