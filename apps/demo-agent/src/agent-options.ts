import type { HookEngine, PermissionStepOptions, TokenUsage, ToolArgs } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { ContextBudget, ContextBudgetOptions } from "./context-budget.js";
import type { Model } from "./model.js";
import type { ParkCall, ParkedCall } from "./parked-call.js";
import type { SkillManager } from "./skill-manager.js";
import type { ToolCallOutcome } from "./tool-call.js";
import type { Tool } from "./tools/tool.js";
import type { WatchBudget, WatchedChange } from "./watch-paths.js";

export interface AgentOptions {
  /** The hook engine every event goes through. Default: an engine that knows the tools' schemas and reports every firing. */
  engine?: HookEngine;
  /** Default: the `ScriptedModel`. */
  model?: Model;
  /** Default: `builtinTools`. */
  tools?: readonly Tool[];
  /**
   * Who answers the permission questions hooks leave open (`defaultAnswer`: a y/n prompt, or
   * `"allow"` / `"deny"`), and optionally which calls ask. Default: read-only tools run, the
   * rest are denied unless a hook allows them.
   */
  permission?: PermissionStepOptions;
  budget?: ContextBudget | ContextBudgetOptions;
  /** Where the Skill tool finds skills. Without it, the Skill tool answers "no skills". */
  skills?: SkillManager | undefined;
  systemPrompt?: string;
  /**
   * How often in a row a Stop hook may make the agent continue. Default 8, Claude Code's cap:
   * the next block is ignored, with a warning, and the turn ends.
   */
  maxStopContinuations?: number;
  /**
   * Milliseconds the SessionEnd hooks get, all together, before they are stopped. Default 1500,
   * Claude Code's budget for them (it runs as the session closes).
   */
  sessionEndTimeoutMs?: number;
  /** Model calls per response before the agent gives up. Default 25. */
  maxSteps?: number;
  /** How often a PreToolUse `retry` is honoured. Default 3. */
  maxToolRetries?: number;
  /** Each session's `CLAUDE_ENV_FILE`: made before SessionStart, applied to Bash, removed at SessionEnd. */
  sessionEnv?: SessionEnv | undefined;
  /**
   * Told when a session's watch of hooks' `watchPaths` ignores a change because a file tool of
   * the agent made it (FileChanged already fired for it in the turn). For logs and tests.
   */
  onWatchSkipped?: ((sessionId: string, file: string, change: WatchedChange) => void) | undefined;
  /**
   * The watched files and folders all sessions share, per owner and in all. Default: a
   * `WatchBudget` with 20,000 entries per owner and 100,000 in all.
   */
  watchBudget?: WatchBudget | undefined;
  /**
   * Where a call a PreToolUse hook defers (`permissionDecision: "defer"`) is parked for a person
   * to decide: the turn ends, waiting, and {@link Agent.resumeParked} picks it up later, in this
   * process or another. Without it a deferred call only stops the turn.
   */
  park?: ParkCall | undefined;
}

/** Per-session env files (`SessionEnvFiles` of `@a3s-lab/hooks-node`, as the agent uses them). */
export interface SessionEnv {
  create(sessionId: string): Promise<unknown>;
  read(sessionId: string): Promise<string>;
  /** The hooks given the env file (SessionStart, CwdChanged, FileChanged) finished: record it. */
  seal(sessionId: string): Promise<void>;
  remove(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

export interface CreateSessionOptions {
  /** The folder the session's file tools are confined to. */
  workdir: string;
  id?: string;
  /** SessionStart's `source`: `startup` (default), `resume`, `clear`, … */
  source?: string;
  metadata?: Record<string, unknown>;
  /**
   * Who the session's resources are charged to (watched files): the SDK client that asked for
   * it. Default `"local"`.
   */
  owner?: string;
}

export interface RespondOptions {
  signal?: AbortSignal;
  /** Told about each step: tool calls, their outcomes, text. For progress streams. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** One step of a response, for progress streams. */
export type ProgressUpdate =
  | { kind: "tool_call"; tool: string; args: ToolArgs; toolUseId: string }
  | {
      kind: "tool_result";
      tool: string;
      toolUseId: string;
      status: ToolCallOutcome["status"];
      output: string;
    }
  | { kind: "text"; text: string };

/** What a response came to. */
export interface Reply {
  /** The final text (after GenerateEnd hooks). */
  text: string;
  /** Set when a hook blocked the prompt or the generation: the reason. */
  blocked?: string;
  /**
   * Set when a hook ended the turn (Claude Code's `continue: false`): its `stopReason`, shown to
   * the user and never to the model.
   */
  stopped?: { reason?: string };
  /** Set when a hook deferred a call and the agent parked it: the approval it waits for. */
  parked?: ParkedCall;
  /** How often a Stop hook made the agent continue. */
  stopContinuations: number;
  /** Tokens this response used. */
  usage: TokenUsage;
}

/**
 * Claude Code's variables for its Stop cap and SessionEnd budget, as agent options:
 * `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` (consecutive Stop blocks honoured) and
 * `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`. Unset or empty leaves the default; anything but a
 * whole number is an `INVALID_INPUT` naming the variable.
 */
export function hookLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Pick<AgentOptions, "maxStopContinuations" | "sessionEndTimeoutMs"> {
  const read = (name: string, min: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === "") return undefined;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
      throw new AgentError(
        "INVALID_INPUT",
        `${name}: expected a whole number >= ${min}, got ${JSON.stringify(raw)}`,
        {
          path: [name],
        },
      );
    }
    return value;
  };
  const cap = read("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", 0);
  const budget = read("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", 1);
  return {
    ...(cap !== undefined ? { maxStopContinuations: cap } : {}),
    ...(budget !== undefined ? { sessionEndTimeoutMs: budget } : {}),
  };
}
