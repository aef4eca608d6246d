import { HookError, type HookResponse } from "@a3s-lab/hooks-core";
import * as z from "zod";
import type { SettingsHandler } from "../handler.js";
import { secondsSchema } from "../hook-common.js";
import { firstLine, interpretResult } from "../interpret-result.js";
import { fillMcpToolInput, inputPlaceholderProblems } from "./mcp-tool-input.js";

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
    .superRefine((input, ctx) => {
      for (const message of inputPlaceholderProblems(input))
        ctx.addIssue({ code: "custom", message });
    })
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
  /** Always `"mcp_tool"`. */
  type: "mcp_tool";
  /** The name of a server in `mcpServers` (`.mcp.json` or a settings file). */
  server: string;
  /** The tool to call on it. */
  tool: string;
  /** Tool arguments; `${path}` in string values is replaced from the hook input. */
  input?: Record<string, unknown>;
  /** Seconds. Default 600. */
  timeout?: number;
}

/** What one tool call answered, as the MCP SDK gives it. */
export interface McpToolCallResult {
  /** The content blocks; their text parts are read as a command hook's stdout. */
  content?: unknown;
  /** Structured output, read as JSON when there is no text content. */
  structuredContent?: unknown;
  /** True when the tool reports an error: the hook fails, and its fail behaviour applies. */
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
  /** Stop every server it started; later calls fail with `UNAVAILABLE`. */
  close(): Promise<void>;
}

/** What `createMcpToolHandler` needs from the host. */
export interface McpToolHandlerDeps {
  /** The servers the settings configure (see `createMcpServerPool`). */
  servers: McpServerPool;
  /** The hook's name, for messages. */
  name?: string | undefined;
  /** The tool's text answer is cut here, with a command hook's over-cap rule. Default 1 MiB. */
  maxOutputBytes?: number | undefined;
}

/** A command hook's default stdout cap, which the tool's text answer shares. */
export const DEFAULT_MCP_TOOL_OUTPUT_BYTES = 1024 * 1024;

/** The text parts of a tool result, one after another; without any, its structured content as JSON. */
function resultText(result: McpToolCallResult): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  const texts = parts.flatMap((p) =>
    p !== null &&
    typeof p === "object" &&
    (p as { type?: unknown }).type === "text" &&
    typeof (p as { text?: unknown }).text === "string"
      ? [(p as { text: string }).text]
      : [],
  );
  if (texts.length > 0) return texts.join("\n");
  const structured = result.structuredContent;
  return structured !== null && typeof structured === "object" ? JSON.stringify(structured) : "";
}

/**
 * The handler of one `mcp_tool` hook: fill `input`'s `${path}` placeholders from the hook
 * input, call the tool, and read its text as a command hook's stdout is read (JSON in any
 * dialect, or plain text). A result with `isError: true` is a failure of the hook (`HANDLER_FAILED`),
 * so the hook's fail behaviour applies. Throws `INVALID_CONFIG` naming the hook when no server
 * of that name is configured.
 */
export function createMcpToolHandler(
  definition: McpToolHookDefinition,
  deps: McpToolHandlerDeps,
): SettingsHandler {
  const { server, tool } = definition;
  const label = deps.name ?? `${server}/${tool}`;
  if (!deps.servers.has(server)) {
    throw new HookError(
      "INVALID_CONFIG",
      `mcp_tool hook "${label}": no MCP server named "${server}" is configured (add it to "mcpServers" in .mcp.json or a settings file; a project's servers need "a3s-hooks trust")`,
    );
  }
  const maxOutputBytes = deps.maxOutputBytes ?? DEFAULT_MCP_TOOL_OUTPUT_BYTES;
  const timeout = (definition.timeout ?? MCP_TOOL_DEFAULT_TIMEOUT_SECONDS) * 1000;
  return async ({ event, input, signal }): Promise<HookResponse | undefined> => {
    const args = fillMcpToolInput(definition.input, input);
    const result = await deps.servers.callTool(server, tool, args, { signal });
    const text = resultText(result);
    if (result.isError === true) {
      const line = firstLine(text);
      throw new HookError(
        "HANDLER_FAILED",
        `tool "${tool}" on MCP server "${server}" answered an error${line ? `: ${line}` : ""}`,
        { details: { server, tool } },
      );
    }
    const bytes = Buffer.byteLength(text);
    const over = bytes > maxOutputBytes;
    const answer = interpretResult(
      {
        pid: undefined,
        exitCode: 0,
        signal: null,
        stdout: over ? Buffer.from(text).subarray(0, maxOutputBytes).toString() : text,
        stderr: "",
        stdoutBytes: bytes,
        stderrBytes: 0,
        truncated: { stdout: over, stderr: false },
        timedOut: false,
        aborted: false,
        duration: 0,
      },
      event,
      { timeout, maxOutputBytes },
    );
    if (answer instanceof HookError) throw answer;
    return answer;
  };
}
