import { createEvent, type HookEngine, type Message } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { Model, ModelResponse, ToolSpec } from "./model.js";
import type { Session } from "./session.js";
import type { Notify } from "./tool-call.js";

/** What one generation needs from the agent. */
export interface GenerateStepDeps {
  engine: HookEngine;
  model: Model;
  systemPrompt: string;
  notify: Notify;
}

/**
 * One model call between its two hook points. GenerateStart may block the call or rewrite
 * the prompt, the system prompt, the messages and the offered tools (for this call only; the
 * session's history is not changed). GenerateEnd may rewrite the text.
 */
export async function generateStep(
  deps: GenerateStepDeps,
  session: Session,
  offered: readonly ToolSpec[],
  signal?: AbortSignal,
): Promise<ModelResponse | { blocked: string }> {
  const lastUser = session.messages.findLast((m) => m.role === "user");
  const prompt = lastUser?.content ?? "";
  const start = await deps.engine.fire(
    createEvent("GenerateStart", {
      sessionId: session.id,
      prompt,
      systemPrompt: deps.systemPrompt,
      model: deps.model.config,
      tools: offered.map((s) => s.name),
      messages: session.messages,
      metadata: session.eventMetadata(),
    }),
  );
  if (start.action === "block") {
    await deps.notify(session, "error", `generation blocked by a hook: ${start.reason}`, "error");
    return { blocked: start.reason ?? "blocked" };
  }
  const request = start.event;
  let messages: readonly Message[] = request.messages ?? session.messages;
  if (request.prompt !== prompt && lastUser) {
    // The model sees the rewritten prompt in place of the user's latest message.
    const at = messages.lastIndexOf(lastUser);
    if (at >= 0)
      messages = messages.map((m, i) => (i === at ? { ...m, content: request.prompt } : m));
  }
  const allowed = new Set(request.tools);
  const tools = offered.filter((s) => allowed.has(s.name));

  const started = performance.now();
  let response: ModelResponse;
  try {
    response = await deps.model.generate({
      systemPrompt: request.systemPrompt,
      messages,
      tools,
      signal,
    });
  } catch (error) {
    const e = AgentError.from(error, "MODEL_ERROR");
    if (e.code !== "ABORTED") await deps.notify(session, "error", e.message, "error");
    throw e;
  }
  session.addUsage(response.usage);
  const end = await deps.engine.fire(
    createEvent("GenerateEnd", {
      sessionId: session.id,
      prompt: request.prompt,
      model: deps.model.config,
      response: {
        text: response.text,
        toolCalls: response.toolCalls,
        usage: response.usage,
        duration: Math.max(0, performance.now() - started),
      },
      metadata: session.eventMetadata(),
    }),
  );
  return { text: end.event.response.text, toolCalls: response.toolCalls, usage: response.usage };
}
