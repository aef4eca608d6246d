import {
  createEvent,
  type HookEngine,
  HookError,
  type HookResult,
  type PreToolUseEvent,
  type ToolArgs,
} from "@a3s-lab/hooks-core";
import { compileNameMatcher } from "@a3s-lab/hooks-core/internal";

/** When the proxy asks permission for a tool call, and what it answers when no hook decides. */
export interface PermissionOptions {
  /**
   * Tool names (a matcher string: `mcp__fs__write_file|mcp__fs__edit_file`, `mcp__fs__*`) whose
   * calls always fire PermissionRequest. Calls to other tools fire it only when a PreToolUse
   * hook answers `ask`. Default: none.
   */
  ask?: string;
  /**
   * The answer when PermissionRequest hooks neither allow nor deny. Nobody sits at an MCP
   * server's terminal, so the default is `deny`.
   */
  defaultAnswer?: "allow" | "deny";
}

interface PermissionCall {
  sessionId: string;
  tool: string;
  toolUseId: string;
  args: ToolArgs;
  pre: HookResult<PreToolUseEvent>;
}

/**
 * The proxy's permission step, run between PreToolUse and the tool: a PreToolUse `allow`
 * settles it; a PreToolUse `ask` (or a tool named in `ask`) fires PermissionRequest, whose
 * hooks allow, deny or leave it to `defaultAnswer`. Every decision fires PermissionGranted or
 * PermissionDenied. Resolves with the arguments to run with and the PermissionRequest result
 * (when one was fired); rejects with `BLOCKED` on a denial.
 */
export class PermissionFlow {
  /** `true`: every tool; `undefined`: none. */
  readonly #ask: ((name: string | undefined) => boolean) | true | undefined;
  readonly #defaultAnswer: "allow" | "deny";

  constructor(options: PermissionOptions = {}) {
    if (options.defaultAnswer !== undefined && !["allow", "deny"].includes(options.defaultAnswer)) {
      throw new HookError(
        "INVALID_CONFIG",
        `permission.defaultAnswer: expected "allow" or "deny", got ${JSON.stringify(options.defaultAnswer)}`,
        { path: ["permission", "defaultAnswer"] },
      );
    }
    this.#defaultAnswer = options.defaultAnswer ?? "deny";
    this.#ask =
      options.ask === undefined || options.ask === ""
        ? undefined
        : (compileNameMatcher(options.ask, ["permission", "ask"]) ?? true);
  }

  async authorize(
    engine: HookEngine,
    call: PermissionCall,
  ): Promise<{ args: ToolArgs; request?: HookResult }> {
    const asked = call.pre.permission === "ask" || this.#wants(call.tool);
    if (!asked) return { args: call.args };
    const base = { sessionId: call.sessionId, tool: call.tool, toolUseId: call.toolUseId };
    const decide = async (
      allowed: boolean,
      args: ToolArgs,
      decidedBy: "hook" | "default",
      reason: string,
    ) => {
      const event = allowed
        ? createEvent("PermissionGranted", { ...base, args, decidedBy, reason })
        : createEvent("PermissionDenied", { ...base, args, decidedBy, reason });
      await engine.fire(event);
      if (!allowed) {
        throw new HookError("BLOCKED", `permission denied for ${call.tool}: ${reason}`, {
          details: { tool: call.tool },
        });
      }
    };
    if (call.pre.permission === "allow") {
      await decide(true, call.args, "hook", "allowed by a PreToolUse hook");
      return { args: call.args };
    }
    const request = await engine.fire(
      createEvent("PermissionRequest", {
        ...base,
        args: call.args,
        reason: `${call.tool} needs permission`,
      }),
    );
    const args = request.event.args;
    if (request.action === "block") {
      await decide(false, args, "hook", request.reason ?? "denied by a hook");
    } else if (request.permission === "allow") {
      await decide(true, args, "hook", "allowed by a PermissionRequest hook");
    } else {
      const allowed = this.#defaultAnswer === "allow";
      await decide(
        allowed,
        args,
        "default",
        allowed ? "allowed by the default answer" : "no hook allowed it",
      );
    }
    return { args, request };
  }

  #wants(tool: string): boolean {
    return this.#ask === true || this.#ask?.(tool) === true;
  }
}
