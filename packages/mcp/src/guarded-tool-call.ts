import {
  type HookEngine,
  HookError,
  type HookResult,
  type PermissionStep,
  runTool,
  type ToolArgs,
} from "@a3s-lab/hooks-core";
import type {
  CallToolRequest,
  CallToolResult,
  Notification,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpToolName } from "./server-command.js";
import { errorResult, resultText, rewriteResult, withContext } from "./tool-result.js";
import type { ToolSchemas } from "./tool-schemas.js";

/** Sends one `tools/call` to the real server; relays its progress when asked to. */
export type CallUpstream = (
  params: CallToolRequest["params"],
  request: ClientRequestContext,
) => Promise<CallToolResult>;

/** The client's request as the tool call sees it: its id, its cancellation, its channel back. */
export interface ClientRequestContext {
  requestId: string | number;
  signal: AbortSignal;
  /** Sends a notification to the client about this request (progress). */
  notify: (notification: Notification) => Promise<void>;
}

/** What one guarded tool call needs from its proxy. */
export interface ToolCallContext {
  engine: HookEngine;
  sessionId: string;
  serverName: string;
  permission: PermissionStep;
  schemas: ToolSchemas;
  maxRetries: number;
  callUpstream: CallUpstream;
}

/** The names of the hooks whose patches changed `args` in these results. */
function rewriters(results: readonly (HookResult | undefined)[]): string[] {
  const names: string[] = [];
  for (const result of results) {
    for (const o of result?.outcomes ?? []) {
      if (o.modifiedPaths?.some((p) => p === "args" || p.startsWith("args."))) {
        names.push(o.name ?? o.hookId);
      }
    }
  }
  return names;
}

/**
 * One `tools/call` through core's tool flow: PreToolUse, the permission step, the real
 * server, PostToolUse or PostToolUseFailure. What hooks decide reaches the client as a tool
 * result it shows the model (`isError: true` with the reason for a block or a denial); a
 * protocol error from the server (unknown tool, the server gone) reaches it as that error.
 */
export async function guardedToolCall(
  ctx: ToolCallContext,
  params: CallToolRequest["params"],
  request: ClientRequestContext,
): Promise<CallToolResult> {
  const { requestId, signal } = request;
  const tool = mcpToolName(ctx.serverName, params.name);
  const args: ToolArgs = params.arguments ?? {};
  let raw: CallToolResult | undefined;
  try {
    const result = await runTool(
      ctx.engine,
      { sessionId: ctx.sessionId, tool, args, toolUseId: String(requestId) },
      async (final, toolSignal) => {
        raw = await ctx.callUpstream(
          { ...params, arguments: final },
          { ...request, signal: toolSignal ?? signal },
        );
        return { output: resultText(raw), success: raw.isError !== true };
      },
      {
        signal,
        maxRetries: ctx.maxRetries,
        authorize: async (current, pre) => {
          const decided = await ctx.permission.authorize(ctx.engine, {
            sessionId: ctx.sessionId,
            tool,
            toolUseId: String(requestId),
            args: current,
            pre,
            signal,
          });
          const hooks = rewriters([pre, decided.request]);
          if (hooks.length > 0) {
            const problem = await ctx.schemas.check(params.name, decided.args, signal);
            if (problem !== undefined) {
              throw new HookError(
                "INVALID_MODIFICATION",
                `${tool}: the arguments as rewritten by hook ${hooks.map((h) => JSON.stringify(h)).join(", ")} do not fit the tool's input schema: ${problem}`,
                { details: { tool, hooks } },
              );
            }
          }
          return decided.args;
        },
      },
    );
    // `raw` is unset when an engine middleware answered in place of the tool: its output is
    // the whole answer.
    const sent: CallToolResult = raw ?? {
      content: [{ type: "text", text: result.output }],
      ...(result.success ? {} : { isError: true }),
    };
    const out =
      result.success && result.output !== resultText(sent)
        ? rewriteResult(sent, result.output)
        : sent;
    // A PostToolUse block's reason (the tool already ran) is for the model too, before the context.
    return withContext(withContext(out, result.feedback), result.additionalContext);
  } catch (error) {
    // A HookError is the hooks' verdict (a block, a denial, a bad rewrite): the model reads it.
    // Anything else (the server's own JSON-RPC error, a closed connection) stays an error.
    if (HookError.is(error) && error.code !== "ABORTED") return errorResult(error.message);
    throw error;
  }
}
