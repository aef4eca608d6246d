import { createEvent, type HookEngine, HookError } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { LoopResult } from "./agent-loop.js";
import { Session } from "./session.js";
import type { SubagentRequest } from "./tools/tool.js";

/** What a subagent needs from its parent agent. */
export interface SubagentDeps {
  engine: HookEngine;
  /** A fresh subagent id. */
  nextId(): string;
  /** The parent's generation and tool loop, run on the subagent's own session. */
  loop(child: Session): Promise<LoopResult>;
}

/**
 * Run a subagent for the Task tool: SubagentStart (a hook may refuse it, or rewrite its
 * description), a fresh loop with its own history in the parent's working directory (its
 * events carry `metadata.subagentId`), then SubagentStop with the outcome. Resolves with the
 * subagent's final text; its token usage counts towards the parent's.
 */
export async function runSubagent(
  deps: SubagentDeps,
  parent: Session,
  request: SubagentRequest,
): Promise<string> {
  const subagentId = deps.nextId();
  const start = await deps.engine.fire(
    createEvent("SubagentStart", {
      sessionId: parent.id,
      subagentId,
      subagentType: request.subagentType,
      description: request.description,
      prompt: request.prompt,
    }),
  );
  if (start.action === "block") {
    throw new AgentError("BLOCKED", `subagent refused by a hook: ${start.reason}`);
  }
  const child = new Session({ id: parent.id, workdir: parent.workdir, subagentId });
  child.messages.push(
    { role: "system", content: `You are a subagent. Your task: ${start.event.description}` },
    { role: "user", content: request.prompt },
  );
  const stop = (success: boolean, extra: { error?: string; output?: string }) =>
    deps.engine.fire(
      createEvent("SubagentStop", {
        sessionId: parent.id,
        subagentId,
        subagentType: request.subagentType,
        success,
        ...extra,
      }),
    );
  let result: LoopResult;
  try {
    result = await deps.loop(child);
  } catch (error) {
    parent.addUsage(child.usage);
    await stop(false, { error: HookError.from(error).message });
    throw error;
  }
  parent.addUsage(child.usage);
  if (result.blocked !== undefined) {
    await stop(false, { error: result.blocked });
    throw new AgentError("BLOCKED", `subagent generation blocked: ${result.blocked}`);
  }
  await stop(true, { output: result.text });
  return result.text;
}
