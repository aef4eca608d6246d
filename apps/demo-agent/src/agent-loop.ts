import type { ToolCall } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { RespondOptions } from "./agent-options.js";
import type { ContextManager } from "./context-manager.js";
import { type GenerateStepDeps, generateStep } from "./generate-step.js";
import type { ToolSpec } from "./model.js";
import { PARKED_CONTEXT_VERSION, type ParkCall, type ParkedCall } from "./parked-call.js";
import type { Session } from "./session.js";
import {
  executeToolCall,
  type ToolCallDeps,
  type ToolCallOptions,
  type ToolCallOutcome,
} from "./tool-call.js";
import type { ToolContext } from "./tools/tool.js";

/** What one run of the generation and tool loop came to. */
export interface LoopResult {
  text: string;
  /** Set when a hook blocked a generation: the reason. */
  blocked?: string;
  /** Set when a hook ended the turn (`continue: false`): its reason, for the user. */
  stopped?: { reason?: string };
  /** Set when a hook deferred a call and the agent parked it: the turn waits for a person. */
  parked?: ParkedCall;
}

/** What the loop needs from the agent. */
export interface LoopDeps extends ToolCallDeps, GenerateStepDeps {
  context: ContextManager;
  /** The tools offered to the model in this loop. */
  offered: readonly ToolSpec[];
  maxSteps: number;
  toolContext(signal: AbortSignal | undefined): ToolContext;
  /** Where a deferred call is parked; without it a deferred call only stops the turn. */
  park?: ParkCall | undefined;
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
    const ran = await runToolCalls(deps, session, toolCalls, text, options);
    if (ran !== undefined) return ran;
  }
  const text = `stopped after ${deps.maxSteps} model calls without a final answer`;
  await deps.notify(session, "status", text, "warning");
  return { text };
}

/**
 * Run a step's tool calls in order, reporting each, and feed their results back. Resolves with
 * the turn's end when a hook stopped it (the calls after the stopping one are told they did not
 * run), after parking the call first when the hook deferred it and a store is given; undefined
 * when every call ran and the loop goes on. `first` (a resumed approval's call) runs with its
 * own options, before the rest.
 */
export async function runToolCalls(
  deps: LoopDeps,
  session: Session,
  toolCalls: readonly ToolCall[],
  text: string,
  options: RespondOptions,
  first: ToolCallOptions = {},
): Promise<LoopResult | undefined> {
  const ctx = deps.toolContext(options.signal);
  for (const [index, call] of toolCalls.entries()) {
    options.onProgress?.({
      kind: "tool_call",
      tool: call.name,
      args: call.args,
      toolUseId: call.id,
    });
    const outcome = await executeToolCall(deps, session, call, ctx, index === 0 ? first : {});
    options.onProgress?.({
      kind: "tool_result",
      tool: call.name,
      toolUseId: call.id,
      status: outcome.status,
      output: outcome.output,
    });
    const rest = toolCalls.slice(index + 1);
    // Parked before the call's result is written: the saved conversation ends where it waits.
    const parked =
      outcome.stopTurn?.deferred && deps.park
        ? await parkCall(deps, deps.park, session, call, rest, text, outcome)
        : undefined;
    session.messages.push({ role: "tool", content: outcome.output, toolCallId: call.id });
    if (outcome.stopTurn) {
      // No further tool call or model call in this turn; the calls after this one are told so.
      for (const later of rest) {
        session.messages.push({
          role: "tool",
          content: "The call did not run: a hook stopped the turn.",
          toolCallId: later.id,
        });
      }
      const stopped =
        outcome.stopTurn.reason === undefined ? {} : { reason: outcome.stopTurn.reason };
      return { text, stopped, ...(parked ? { parked } : {}) };
    }
  }
  return undefined;
}

/** Park a deferred call with what resuming it needs; resolves once the store has it. */
async function parkCall(
  deps: LoopDeps,
  park: ParkCall,
  session: Session,
  call: ToolCall,
  rest: readonly ToolCall[],
  text: string,
  outcome: ToolCallOutcome,
): Promise<ParkedCall> {
  const reason = outcome.stopTurn?.reason ?? "a hook deferred the call";
  const routing = outcome.stopTurn?.routing;
  const { id, deadline } = await park({
    sessionId: session.id,
    toolName: call.name,
    toolUseId: call.id,
    toolInput: call.args,
    reason,
    ...(routing ? { routing } : {}),
    context: {
      version: PARKED_CONTEXT_VERSION,
      sessionId: session.id,
      workdir: session.workdir,
      cwd: session.cwd,
      messages: structuredClone(session.messages),
      call,
      rest: [...rest],
      text,
      recentTools: [...session.recentTools],
      usage: { ...session.usage },
      metadata: session.metadata,
    },
  });
  deps.engine.recordApproval({
    step: "parked",
    approvalId: id,
    sessionId: session.id,
    tool: call.name,
    toolUseId: call.id,
    reason,
    ...(routing?.deciders?.length ? { deciders: routing.deciders } : {}),
    ...(deadline !== undefined ? { deadline } : {}),
    ...(routing?.onDeadline !== undefined || deadline !== undefined
      ? { onDeadline: routing?.onDeadline ?? "deny" }
      : {}),
  });
  return { approvalId: id, sessionId: session.id, tool: call.name, toolUseId: call.id, reason };
}
