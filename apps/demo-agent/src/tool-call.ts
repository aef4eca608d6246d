import {
  createEvent,
  type DeferRouting,
  type HookEngine,
  PermissionDeniedError,
  type PermissionStep,
  runTool,
  type ToolArgs,
  ToolBlockedError,
  type ToolCall,
  TurnStoppedError,
} from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import { permissionReason } from "./permission-policy.js";
import type { Session } from "./session.js";
import { parseToolInput, type Tool, type ToolContext } from "./tools/tool.js";

/** How a tool call ended, as the model and the AgentService see it. */
export type ToolCallStatus =
  /** The tool ran and succeeded. */
  | "ok"
  /** The tool ran and failed (non-zero exit, missing file, path outside the workspace, …). */
  | "failed"
  /** A PreToolUse hook blocked it. */
  | "blocked"
  /** Permission was denied (by a hook, a person, or the default). */
  | "denied"
  /** It never ran: unknown tool or invalid input. */
  | "invalid"
  /** A PreToolUse hook ended the turn (`continue: false`): it never ran, and no call follows. */
  | "stopped";

export interface ToolCallOutcome {
  status: ToolCallStatus;
  /** What the model is told. */
  output: string;
  exitCode?: number;
  /** The arguments the tool ran with, after hooks. */
  args: ToolArgs;
  /**
   * Set when a hook ended the turn (`continue: false`) at this call, before or after the tool
   * ran: the agent makes no further call in this turn. `reason` is for the user, not the model.
   */
  stopTurn?: { reason?: string; deferred?: true; routing?: DeferRouting };
}

/** How one call runs, beyond the agent's usual way. */
export interface ToolCallOptions {
  /**
   * A person already allowed this call (a resumed approval): when PreToolUse hooks defer it
   * again, their recorded decision answers the defer and the call goes on. A block or a
   * `continue: false` still stands.
   */
  deferAnsweredBy?: string | undefined;
  /** The permission step for this call instead of the agent's. */
  permission?: PermissionStep | undefined;
}

/**
 * Tells the user something about a session by firing Notification (see {@link fireNotification});
 * the agent, the generation step and the context manager share one.
 */
export type Notify = (
  session: Session,
  type: string,
  message: string,
  level: "info" | "warning" | "error",
) => Promise<void>;

/** What running a tool call needs from the agent. */
export interface ToolCallDeps {
  engine: HookEngine;
  tools: ReadonlyMap<string, Tool>;
  permission: PermissionStep;
  maxRetries: number;
  notify: Notify;
}

/**
 * Run one tool call through every hook point: input validation, PreToolUse (block, retry,
 * rewrite) via core's tool guard, the permission flow, the tool itself, then PostToolUse or
 * PostToolUseFailure. Never throws for anything the model caused; the outcome says what happened.
 */
export async function executeToolCall(
  deps: ToolCallDeps,
  session: Session,
  call: ToolCall,
  ctx: ToolContext,
  options: ToolCallOptions = {},
): Promise<ToolCallOutcome> {
  const tool = deps.tools.get(call.name);
  if (!tool) {
    const known = [...deps.tools.keys()].join(", ");
    return {
      status: "invalid",
      output: `Error: unknown tool ${JSON.stringify(call.name)}; tools are ${known}`,
      args: call.args,
    };
  }
  try {
    // Hooks only ever see arguments that fit the tool's schema.
    parseToolInput(tool, call.args);
  } catch (error) {
    return {
      status: "invalid",
      output: `Error: ${AgentError.from(error).message}`,
      args: call.args,
    };
  }
  session.noteTool(tool.name);
  const metadata = session.eventMetadata();
  let denial: unknown;
  // The arguments the tool ran with, for the failure path (runTool rethrows a tool's error).
  let ranWith: ToolArgs | undefined;
  const off = options.deferAnsweredBy === undefined ? undefined : answerDefer(deps.engine, call.id);
  try {
    const result = await runTool(
      deps.engine,
      {
        sessionId: session.id,
        tool: tool.name,
        args: call.args,
        toolUseId: call.id,
        context: session.toolContext(),
        metadata,
      },
      // `args` are what PreToolUse and then PermissionRequest hooks left (authorize returns them).
      (args, signal) => {
        ranWith = args;
        return tool.run(parseToolInput(tool, args), { ...ctx, signal });
      },
      {
        maxRetries: deps.maxRetries,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        authorize: async (args, pre) => {
          try {
            const decided = await (options.permission ?? deps.permission).authorize(deps.engine, {
              sessionId: session.id,
              tool: tool.name,
              args,
              toolUseId: call.id,
              metadata,
              pre,
              reason: permissionReason(tool.name, args),
              signal: ctx.signal,
              onQuestion: (q) =>
                deps.notify(session, "permission_prompt", `${q.reason}: allow?`, "info"),
            });
            return decided.args;
          } catch (error) {
            // Remembered so a denial is told apart from a tool that fails with BLOCKED.
            denial = error;
            throw error;
          }
        },
      },
    );
    // A PostToolUse block comes after the tool ran: its reason is feedback the model reads.
    const context =
      (result.feedback ? `\n[hook feedback] ${result.feedback}` : "") +
      (result.additionalContext ? `\n[hook context] ${result.additionalContext}` : "");
    const args = result.args;
    const stop = result.stopTurn ? { stopTurn: reasonOf(result.stopTurn.reason) } : {};
    if (result.success) {
      return {
        status: "ok",
        output: result.output + context,
        args,
        ...exit(result.exitCode),
        ...stop,
      };
    }
    return {
      status: "failed",
      output: `Error (exit ${result.exitCode ?? "?"}): ${result.output}${context}`,
      args,
      ...exit(result.exitCode),
      ...stop,
    };
  } catch (error) {
    if (error instanceof TurnStoppedError) {
      // The model is told only that the call did not run; the stop reason is the user's.
      return {
        status: "stopped",
        output: "The call did not run: a hook stopped the turn.",
        args: call.args,
        stopTurn: {
          ...reasonOf(error.stopReason),
          ...(error.result.stopTurn?.deferred ? { deferred: true as const } : {}),
          ...(error.result.stopTurn?.routing ? { routing: error.result.stopTurn.routing } : {}),
        },
      };
    }
    if (error instanceof ToolBlockedError) {
      return { status: "blocked", output: `Blocked by a hook: ${error.reason}`, args: call.args };
    }
    const e = AgentError.from(error, "TOOL_FAILED");
    if (error === denial && e.code === "BLOCKED") {
      // A PermissionDenied hook's `retry: true`: the denial stands, and the model hears it may
      // try again (Claude Code's "PermissionDenied decision control").
      const retry =
        error instanceof PermissionDeniedError && error.retry
          ? "\n[hook] You may retry this tool call."
          : "";
      return { status: "denied", output: `Error: ${e.message}${retry}`, args: call.args };
    }
    if (e.code === "ABORTED") throw e;
    await deps.notify(session, "error", `${tool.name} failed: ${e.message}`, "error");
    return { status: "failed", output: `Error: ${e.message}`, args: ranWith ?? call.args };
  } finally {
    off?.();
  }
}

/**
 * While one call runs, a PreToolUse `defer` of that call (and only that) is taken as answered:
 * the merged result loses its deferred stop, so the permission step and the tool follow.
 */
function answerDefer(engine: HookEngine, toolUseId: string): () => void {
  return engine.use({
    name: "recorded-approval",
    events: ["PreToolUse"],
    wrapFire: async (event, _ctx, next) => {
      const result = await next();
      const stop = result.stopTurn;
      if (event.toolUseId !== toolUseId || stop?.deferred !== true) return result;
      // The merge turned the deferring hook's stop into a block of its own; both go.
      const { stopTurn: _answered, reason: _reason, blockedBy, ...rest } = result;
      return {
        ...rest,
        ...(blockedBy !== undefined && blockedBy !== stop.hookId ? { blockedBy } : {}),
        action: "continue",
      };
    },
  });
}

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

function exit(code: number | undefined): { exitCode?: number } {
  return code === undefined ? {} : { exitCode: code };
}

/** Fire a Notification for a session. */
export async function fireNotification(
  engine: HookEngine,
  session: Session,
  notificationType: string,
  message: string,
  level: "info" | "warning" | "error",
): Promise<void> {
  await engine.fire(
    createEvent("Notification", {
      sessionId: session.id,
      notificationType,
      message,
      level,
      metadata: session.eventMetadata(),
    }),
  );
}
