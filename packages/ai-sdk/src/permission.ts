import {
  createEvent,
  type HookEngine,
  HookError,
  type HookResult,
  type PreToolUseEvent,
  type ToolArgs,
} from "@a3s-lab/hooks-core";

/** A permission question that hooks left open. */
export interface PermissionQuestion {
  sessionId: string;
  tool: string;
  args: ToolArgs;
  toolCallId: string;
}

/**
 * Answers a permission question no hook settled: a prompt in your UI, a rule, a fixed answer.
 * Without one, open questions are denied.
 */
export type PermissionAsker = (
  question: PermissionQuestion,
) => "allow" | "deny" | Promise<"allow" | "deny">;

/** A call whose permission was denied, by a hook, the asker, or the default. */
export class PermissionDeniedError extends HookError {
  override name = "PermissionDeniedError";
  readonly reason: string;
  constructor(tool: string, reason: string) {
    super("BLOCKED", `permission denied for ${tool}: ${reason}`, { details: { tool } });
    this.reason = reason;
  }
}

export interface PermissionStep {
  engine: HookEngine;
  sessionId: string;
  tool: string;
  toolCallId: string;
  /** True when the host's policy wants a permission request for this call. */
  required: boolean;
  ask: PermissionAsker | undefined;
}

/**
 * The permission flow between PreToolUse and the tool: runs when the host's policy or a
 * PreToolUse hook asks (a PreToolUse `allow` waives the policy). PermissionRequest hooks may
 * allow, deny (block) or rewrite the arguments; a question they leave open goes to the asker,
 * and is denied without one. The decision fires PermissionGranted or PermissionDenied.
 * Resolves with the arguments to run with, plus the PermissionRequest result when one fired.
 */
export async function authorizeCall(
  step: PermissionStep,
  args: ToolArgs,
  pre: HookResult<PreToolUseEvent>,
): Promise<{ args: ToolArgs; request?: HookResult }> {
  const needed = pre.permission === "ask" || (step.required && pre.permission !== "allow");
  if (!needed) return { args };
  const { engine } = step;
  const base = {
    sessionId: step.sessionId,
    tool: step.tool,
    toolUseId: step.toolCallId,
  };
  const request = await engine.fire(
    createEvent("PermissionRequest", { ...base, args, reason: `${step.tool} needs permission` }),
  );
  const asked = request.event.args;
  const decide = async (allowed: boolean, decidedBy: "hook" | "user" | "default", why: string) => {
    const name = allowed ? "PermissionGranted" : "PermissionDenied";
    await engine.fire(createEvent(name, { ...base, args: asked, decidedBy, reason: why }));
    if (!allowed) throw new PermissionDeniedError(step.tool, why);
    return { args: asked, request };
  };
  if (request.action === "block")
    return decide(false, "hook", request.reason ?? "denied by a hook");
  if (request.permission === "allow") return decide(true, "hook", "allowed by a hook");
  if (!step.ask) return decide(false, "default", "nobody was asked, so the answer is no");
  const answer = await step.ask({
    sessionId: step.sessionId,
    tool: step.tool,
    args: asked,
    toolCallId: step.toolCallId,
  });
  return answer === "allow"
    ? decide(true, "user", "allowed when asked")
    : decide(false, "user", "denied when asked");
}
