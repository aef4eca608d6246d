import type { HookResponse } from "@a3s-lab/hooks-core";
import { HookError } from "@a3s-lab/hooks-core";
import { z } from "zod";
import { secondsSchema } from "../command/command-definition.js";
import type { SettingsHandler } from "./handler.js";

/** Claude Code's default for an `mcp_tool` hook that sets no `timeout`: 600 seconds. */
export const MCP_TOOL_DEFAULT_TIMEOUT_SECONDS = 600;

/** The fields of an `mcp_tool` hook of its own (the common fields are the dispatcher's). */
export const mcpToolHookShape = {
  type: z.literal("mcp_tool", { error: 'expected "mcp_tool"' }),
  server: z
    .string({ error: "expected the name of a configured MCP server" })
    .min(1, { error: "expected the name of a configured MCP server" })
    .max(256, { error: "expected a server name of at most 256 characters" })
    .describe('The name of a server in "mcpServers" (.mcp.json or a settings file).'),
  tool: z
    .string({ error: "expected a tool name" })
    .min(1, { error: "expected a tool name" })
    .max(256, { error: "expected a tool name of at most 256 characters" })
    .describe("The tool to call on that server."),
  input: z
    .record(z.string(), z.unknown(), { error: "expected an object of tool arguments" })
    .optional()
    .describe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference's placeholder syntax
      'The tool\'s arguments. In string values, "${path}" is replaced by that field of the hook input, e.g. "${tool_input.file_path}".',
    ),
  timeout: secondsSchema
    .optional()
    .describe(`Seconds before the call is cancelled. Default ${MCP_TOOL_DEFAULT_TIMEOUT_SECONDS}.`),
};

/** An `mcp_tool` hook: call `tool` on the configured MCP server `server`. */
export interface McpToolHookDefinition {
  type: "mcp_tool";
  server: string;
  tool: string;
  /** Tool arguments; `${path}` in string values is replaced from the hook input. */
  input?: Record<string, unknown>;
  /** Seconds. Default 600. */
  timeout?: number;
}

/** What one tool call answered, as the MCP SDK gives it. */
export interface McpToolCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * The configured MCP servers, started on first use and kept for later firings. Disposing it
 * closes every server it started.
 */
export interface McpServerPool extends AsyncDisposable {
  /** True when a server of that name is configured (and allowed to run). */
  has(server: string): boolean;
  /**
   * Call one tool. Throws a `HookError`: `UNAVAILABLE` when the server cannot be started or
   * died during the call, `ABORTED` when `signal` fired, `HANDLER_FAILED` for a protocol error.
   */
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal },
  ): Promise<McpToolCallResult>;
  /** Close every server; later calls start them again. */
  close(): Promise<void>;
}

/** What `createMcpToolHandler` needs from the host. */
export interface McpToolHandlerDeps {
  /** The servers the settings configure (see `createMcpServerPool`). */
  servers: McpServerPool;
}

/**
 * The handler of one `mcp_tool` hook: fill `input`'s `${path}` placeholders from the hook
 * input, call the tool, and read its text content as a command hook's stdout is read.
 */
export function createMcpToolHandler(
  definition: McpToolHookDefinition,
  deps: McpToolHandlerDeps,
): SettingsHandler {
  return async (_ctx): Promise<HookResponse | undefined> => {
    void deps;
    throw new HookError(
      "UNAVAILABLE",
      `mcp_tool ${definition.server}/${definition.tool}: not implemented yet`,
    );
  };
}
