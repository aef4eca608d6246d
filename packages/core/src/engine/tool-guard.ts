import { HookError } from "../base/hook-error.js";
import { defaultTimers, sleep, type Timers } from "../base/timers.js";
import { createEvent } from "../events/create-event.js";
import type { PostToolUseEvent, PreToolUseEvent, ToolArgs } from "../events/event-schemas.js";
import type { HookResult, TurnStop } from "../merge/merge.js";
import { type HookEngine, toolLayersOf } from "./hook-engine.js";
import { MiddlewareCall, type ToolInvocation, type ToolOutput, toolThrough } from "./middleware.js";

/** Options of `runTool`. */
export interface RunToolOptions {
  /** How often a `retry` answer is honoured before giving up with `RETRY_EXHAUSTED`. Default 3. */
  maxRetries?: number;
  /** Timers for the retry delay; inject fakes in tests. */
  timers?: Timers;
  /** Aborts the hook firings, the retry wait and (passed on to it) the tool. */
  signal?: AbortSignal;
  /**
   * Runs after PreToolUse allowed the call and before the tool: the place for the host's
   * permission flow (PermissionRequest hooks may rewrite the arguments: return the new ones and
   * the tool and PostToolUse use them). Throw (a `HookError` with code `BLOCKED`, say) to stop
   * the call.
   */
  authorize?: (
    args: ToolArgs,
    pre: HookResult<PreToolUseEvent>,
  ) => ToolArgs | undefined | Promise<ToolArgs | undefined>;
}

/** What `runTool` answers: the output after PostToolUse hooks, and what the hooks decided. */
export interface GuardedToolResult {
  /** The tool's output, as PostToolUse hooks left it. */
  output: string;
  /** False when the tool threw or answered `success: false` (PostToolUseFailure fired). */
  success: boolean;
  /** The tool's exit code, when it gave one. */
  exitCode?: number;
  /** Milliseconds the tool itself took, hooks not counted. */
  duration: number;
  /** The arguments the tool ran with (after PreToolUse hooks). */
  args: ToolArgs;
  /** The merged PreToolUse result that let the call through. */
  pre: HookResult<PreToolUseEvent>;
  /** The merged PostToolUse (or PostToolUseFailure) result. */
  post: HookResult;
  /** Context the hooks added for the model, from PreToolUse and PostToolUse. */
  additionalContext?: string;
  /**
   * The reasons of PostToolUse (or PostToolUseFailure) hooks that blocked after the tool ran
   * (`decision: "block"`, exit 2): the host gives them to the model with the tool's result, as
   * Claude Code does.
   */
  feedback?: string;
  /**
   * Set when a PostToolUse (or PostToolUseFailure) hook ended the agent's turn: the tool ran,
   * but the host makes no further call in this turn and shows `reason` to the user.
   */
  stopTurn?: TurnStop;
}

/** A tool call a hook blocked. `reason` is what the agent shows the model. */
export class ToolBlockedError extends HookError {
  /** Always `"ToolBlockedError"`. */
  override name = "ToolBlockedError";
  /** The tool that was blocked. */
  readonly tool: string;
  /** The winning block's reason: what the agent shows the model. */
  readonly reason: string;
  /** The whole PreToolUse result, for which hook blocked (`blockedBy`) and its outcomes. */
  readonly result: HookResult;
  constructor(tool: string, result: HookResult) {
    const reason = result.reason ?? "blocked by hook";
    super("BLOCKED", `${tool} was blocked by a hook: ${reason}`, {
      details: { tool, hookId: result.blockedBy },
    });
    this.tool = tool;
    this.reason = reason;
    this.result = result;
  }
}

/**
 * A PreToolUse hook ended the agent's whole turn (Claude Code's `continue: false`): the tool did
 * not run, and the host makes no further tool or model call in this turn. `stopReason` is for
 * the user; unlike a {@link ToolBlockedError}'s reason, it is never shown to the model.
 */
export class TurnStoppedError extends HookError {
  /** Always `"TurnStoppedError"`. */
  override name = "TurnStoppedError";
  /** The tool whose call stopped the turn. */
  readonly tool: string;
  /** The hook's `stopReason`, for the user; absent when it gave none. */
  readonly stopReason: string | undefined;
  /** The whole result whose `stopTurn` ended the turn. */
  readonly result: HookResult;
  constructor(tool: string, result: HookResult) {
    const stopReason = result.stopTurn?.reason;
    super("BLOCKED", `a hook stopped the turn at ${tool}${stopReason ? `: ${stopReason}` : ""}`, {
      details: { tool, hookId: result.stopTurn?.hookId },
    });
    this.tool = tool;
    this.stopReason = stopReason;
    this.result = result;
  }
}

/**
 * Run one tool call the way an A3S agent loop does: PreToolUse (a stopped turn →
 * {@link TurnStoppedError}; block → {@link ToolBlockedError}; a hook's `respond` → its output
 * stands for the tool's, which does not run;
 * retry → wait and fire again, at most `maxRetries` times; modified args → used), then the tool,
 * then PostToolUse (or PostToolUseFailure), with duration and exit code.
 *
 * @example
 * ```ts
 * const { output } = await runTool(engine, { sessionId, tool: "Bash", args: { command: "ls" } },
 *   async (args) => ({ output: await sh(String(args.command)) }));
 * ```
 */
export async function runTool(
  engine: HookEngine,
  call: ToolInvocation,
  execute: (args: ToolArgs, signal: AbortSignal | undefined) => Promise<ToolOutput> | ToolOutput,
  options: RunToolOptions = {},
): Promise<GuardedToolResult> {
  const timers = options.timers ?? defaultTimers;
  const maxRetries = options.maxRetries ?? 3;
  const fireOptions = options.signal ? { signal: options.signal } : {};
  const base = {
    sessionId: call.sessionId,
    tool: call.tool,
    ...(call.toolUseId !== undefined ? { toolUseId: call.toolUseId } : {}),
    ...(call.metadata !== undefined ? { metadata: call.metadata } : {}),
  };

  let pre: HookResult<PreToolUseEvent>;
  for (let attempt = 0; ; attempt++) {
    const event = createEvent("PreToolUse", {
      ...base,
      args: call.args,
      ...(call.context !== undefined ? { context: call.context } : {}),
    });
    pre = await engine.fire(event, fireOptions);
    if (pre.stopTurn) throw new TurnStoppedError(call.tool, pre);
    if (pre.respond) break;
    if (pre.action === "block") throw new ToolBlockedError(call.tool, pre);
    if (pre.action !== "retry") break;
    if (attempt >= maxRetries) {
      throw new HookError(
        "RETRY_EXHAUSTED",
        `${call.tool}: hooks asked to retry more than ${maxRetries} times`,
        {
          details: { tool: call.tool, retries: attempt },
        },
      );
    }
    await sleep(pre.retryDelay ?? 0, timers, options.signal);
  }

  const answered = pre.respond;
  // A hook answered in place of the tool: nothing runs, so there is nothing to authorize.
  let args =
    answered !== undefined
      ? pre.event.args
      : ((await options.authorize?.(pre.event.args, pre)) ?? pre.event.args);

  const start = timers.now();
  let output: ToolOutput;
  let failure: unknown;
  try {
    const wrapped = toolLayersOf(engine);
    if (answered !== undefined) output = { output: answered.output };
    else if (wrapped === undefined) output = await execute(args, options.signal);
    else {
      // The engine's middleware run around the tool; the arguments the tool ran with (a
      // middleware may change them) are the ones PostToolUse reports.
      output = await toolThrough(
        wrapped.layers,
        { ...call, args },
        new MiddlewareCall(options.signal),
        async (ran) => {
          args = ran.args;
          return execute(ran.args, options.signal);
        },
        wrapped.host,
      );
    }
  } catch (error) {
    failure = error;
    output = { output: "", success: false };
  }
  const duration = Math.max(0, timers.now() - start);
  const success = failure === undefined && output.success !== false;

  let post: HookResult;
  let text = output.output;
  if (success) {
    const event: PostToolUseEvent = createEvent("PostToolUse", {
      ...base,
      args,
      result: {
        success,
        output: output.output,
        duration,
        ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
      },
    });
    post = await engine.fire(event, fireOptions);
    text = (post.event as PostToolUseEvent).result.output;
  } else {
    const message =
      failure !== undefined ? HookError.from(failure).message : output.output || "tool failed";
    post = await engine.fire(
      createEvent("PostToolUseFailure", {
        ...base,
        args,
        error: message,
        duration,
        ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
      }),
      fireOptions,
    );
    if (failure !== undefined) throw failure;
  }

  const context = [pre.additionalContext, post.additionalContext].filter(Boolean).join("\n");
  return {
    output: text,
    success,
    ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
    duration,
    args,
    pre,
    post,
    ...(context ? { additionalContext: context } : {}),
    ...(post.feedback ? { feedback: post.feedback } : {}),
    ...(post.stopTurn ? { stopTurn: post.stopTurn } : {}),
  };
}
