import { AgentError } from "./agent-error.js";
import type { RespondOptions } from "./agent-options.js";
import type { ContextManager } from "./context-manager.js";
import { type GenerateStepDeps, generateStep } from "./generate-step.js";
import type { ToolSpec } from "./model.js";
import type { Session } from "./session.js";
import { executeToolCall, type ToolCallDeps } from "./tool-call.js";
import type { ToolContext } from "./tools/tool.js";

/** What one run of the generation and tool loop came to. */
export interface LoopResult {
  text: string;
  /** Set when a hook blocked a generation: the reason. */
  blocked?: string;
  /** Set when a hook ended the turn (`continue: false`): its reason, for the user. */
  stopped?: { reason?: string };
}

/** What the loop needs from the agent. */
export interface LoopDeps extends ToolCallDeps, GenerateStepDeps {
  context: ContextManager;
  /** The tools offered to the model in this loop. */
  offered: readonly ToolSpec[];
  maxSteps: number;
  toolContext(signal: AbortSignal | undefined): ToolContext;
}

/**
 * The heart of the agent: check the context budget, generate, run the tool calls the model
 * asked for (each through every tool hook point), feed the results back, and again, until the
 * model answers without tool calls, a hook blocks a generation or stops the turn, or `maxSteps`
 * runs out.
 */
export async function runLoop(
  deps: LoopDeps,
  session: Session,
  options: RespondOptions,
): Promise<LoopResult> {
  for (let step = 0; step < deps.maxSteps; step++) {
    if (options.signal?.aborted) throw new AgentError("ABORTED", "the response was cancelled");
    await deps.context.check(session);
    const generated = await generateStep(deps, session, deps.offered, options.signal);
    if ("blocked" in generated) return { text: "", blocked: generated.blocked };
    const { text, toolCalls } = generated;
    session.messages.push({
      role: "assistant",
      content: text,
      ...(toolCalls.length ? { toolCalls } : {}),
    });
    if (text) options.onProgress?.({ kind: "text", text });
    if (toolCalls.length === 0) return { text };
    const ctx = deps.toolContext(options.signal);
    for (const call of toolCalls) {
      options.onProgress?.({
        kind: "tool_call",
        tool: call.name,
        args: call.args,
        toolUseId: call.id,
      });
      const outcome = await executeToolCall(deps, session, call, ctx);
      options.onProgress?.({
        kind: "tool_result",
        tool: call.name,
        toolUseId: call.id,
        status: outcome.status,
        output: outcome.output,
      });
      session.messages.push({ role: "tool", content: outcome.output, toolCallId: call.id });
      if (outcome.stopTurn) {
        // No further tool call or model call in this turn; the calls after this one are told so.
        for (const rest of toolCalls.slice(toolCalls.indexOf(call) + 1)) {
          session.messages.push({
            role: "tool",
            content: "The call did not run: a hook stopped the turn.",
            toolCallId: rest.id,
          });
        }
        return { text, stopped: outcome.stopTurn };
      }
    }
  }
  const text = `stopped after ${deps.maxSteps} model calls without a final answer`;
  await deps.notify(session, "status", text, "warning");
  return { text };
}
