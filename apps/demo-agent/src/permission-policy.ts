import {
  createEvent,
  type HookEngine,
  type HookResult,
  type PreToolUseEvent,
  type ToolArgs,
} from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";

/** A question the policy could not settle with hooks. */
export interface PermissionQuestion {
  sessionId: string;
  tool: string;
  args: ToolArgs;
  reason: string;
}

/** Who answers a question hooks left open: a person at a prompt, or a fixed default. */
export type PermissionAsker = (
  question: PermissionQuestion,
) => "allow" | "deny" | Promise<"allow" | "deny">;

export interface PermissionPolicyOptions {
  /** Answers open questions, e.g. a y/n prompt. When absent, `defaultAnswer` decides. */
  ask?: PermissionAsker | undefined;
  /** The answer when hooks leave a question open and nobody is asked. Default `deny`. */
  defaultAnswer?: "allow" | "deny";
}

/** One tool call that needs (or may need) permission. */
export interface PermissionCall {
  sessionId: string;
  tool: string;
  args: ToolArgs;
  readOnly: boolean;
  toolUseId?: string | undefined;
  metadata?: Record<string, unknown>;
  /** The PreToolUse result: a hook may have said `allow` (skip the prompt) or `ask` (force it). */
  pre?: HookResult<PreToolUseEvent> | undefined;
  /** Fired when a person (or the default) is about to be asked. */
  onPrompt?: ((question: PermissionQuestion) => Promise<void>) | undefined;
}

function describe(tool: string, args: ToolArgs): string {
  const subject = args.command ?? args.file_path ?? args.path ?? args.pattern;
  return typeof subject === "string"
    ? `${tool} wants to act on ${JSON.stringify(subject.slice(0, 200))}`
    : `${tool} needs permission`;
}

/**
 * The permission flow: read-only tools run; every other tool fires PermissionRequest, whose
 * hooks may allow, deny (block) or leave it open (`ask`); an open question goes to the asker,
 * else the default answer. The decision fires PermissionGranted or PermissionDenied, with who
 * decided. A PreToolUse hook's `allow` skips the request, its `ask` forces one.
 *
 * @example
 * ```ts
 * const policy = new PermissionPolicy({ defaultAnswer: "allow" });
 * const args = await policy.authorize(engine, { sessionId, tool: "Bash", args: { command: "ls" }, readOnly: false });
 * ```
 */
export class PermissionPolicy {
  readonly #ask: PermissionAsker | undefined;
  readonly defaultAnswer: "allow" | "deny";

  constructor(options: PermissionPolicyOptions = {}) {
    this.#ask = options.ask;
    this.defaultAnswer = options.defaultAnswer ?? "deny";
    if (this.defaultAnswer !== "allow" && this.defaultAnswer !== "deny") {
      throw new AgentError(
        "INVALID_INPUT",
        `defaultAnswer: expected "allow" or "deny", got ${JSON.stringify(this.defaultAnswer)}`,
        {
          path: ["defaultAnswer"],
        },
      );
    }
  }

  /**
   * Decide one call. Resolves with the arguments to run with (PermissionRequest hooks may
   * rewrite them); rejects with `BLOCKED` when permission is denied.
   */
  async authorize(engine: HookEngine, call: PermissionCall): Promise<ToolArgs> {
    const base = {
      sessionId: call.sessionId,
      tool: call.tool,
      ...(call.toolUseId !== undefined ? { toolUseId: call.toolUseId } : {}),
      ...(call.metadata !== undefined ? { metadata: call.metadata } : {}),
    };
    const granted = async (
      args: ToolArgs,
      decidedBy: "hook" | "user" | "default",
      reason: string,
    ) => {
      await engine.fire(createEvent("PermissionGranted", { ...base, args, decidedBy, reason }));
      return args;
    };
    const denied = async (
      args: ToolArgs,
      decidedBy: "hook" | "user" | "default",
      reason: string,
    ) => {
      await engine.fire(createEvent("PermissionDenied", { ...base, args, decidedBy, reason }));
      return new AgentError("BLOCKED", `permission denied for ${call.tool}: ${reason}`);
    };

    if (call.pre?.permission === "allow")
      return granted(call.args, "hook", "allowed by a PreToolUse hook");
    if (call.readOnly && call.pre?.permission !== "ask") return call.args;

    const reason = describe(call.tool, call.args);
    const request = await engine.fire(
      createEvent("PermissionRequest", { ...base, args: call.args, reason }),
    );
    const args = request.event.args;
    if (request.action === "block")
      throw await denied(args, "hook", request.reason ?? "denied by a hook");
    if (request.permission === "allow")
      return granted(args, "hook", "allowed by a PermissionRequest hook");

    const question: PermissionQuestion = {
      sessionId: call.sessionId,
      tool: call.tool,
      args,
      reason,
    };
    await call.onPrompt?.(question);
    const decidedBy = this.#ask ? "user" : "default";
    const answer = this.#ask ? await this.#ask(question) : this.defaultAnswer;
    if (answer === "allow")
      return granted(
        args,
        decidedBy,
        decidedBy === "user" ? "allowed at the prompt" : "allowed by the default answer",
      );
    throw await denied(
      args,
      decidedBy,
      decidedBy === "user" ? "denied at the prompt" : "denied by the default answer",
    );
  }
}
