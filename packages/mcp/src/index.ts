/**
 * @a3s-lab/hooks-mcp: A3S hooks for any MCP client. An MCP server that wraps a real one and
 * runs every tool call through PreToolUse, PermissionRequest and PostToolUse hooks.
 */

// ── For users ─────────────────────────────────────────────────────────────────
export type { McpHookProxy, McpHookProxyOptions, McpProxyExit } from "./mcp-hook-proxy.js";
export { createMcpHookProxy } from "./mcp-hook-proxy.js";
export type { PermissionOptions } from "./permission-flow.js";
export type { McpProxyCliIo } from "./run-mcp-proxy-cli.js";
export { MCP_PROXY_USAGE, runMcpProxyCli } from "./run-mcp-proxy-cli.js";
export type { ServerCommand } from "./server-command.js";
export { mcpToolName } from "./server-command.js";
