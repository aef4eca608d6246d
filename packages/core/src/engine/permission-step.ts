import { HookError } from "../base/hook-error.js";
import { createEvent } from "../events/create-event.js";
import type { PermissionRequestEvent, PreToolUseEvent, ToolArgs } from "../events/event-schemas.js";
import type { HookResult } from "../merge/merge.js";
import type { FireOptions, HookEngine } from "./hook-engine.js";
import { compileNameMatcher } from "./matcher.js";

/** A final answer to a permission question. */
export type PermissionAnswer = "allow" | "deny";

/** Who settled a permission question, as PermissionGranted and PermissionDenied report it. */
export type PermissionDecider = "hook" | "user" | "default";

/** A permission question that no hook settled, put to the host's answer. */
export interface PermissionQuestion {
  /** The session the call belongs to. */
  sessionId: string;
  /** The tool that wants to run. */
  tool: string;
  /** The arguments as PermissionRequest hooks left them: what runs if the answer is `allow`. */
  args: ToolArgs;
  /** The PermissionRequest event's reason (what the call wants to do). */
  reason: string;
  /** The model's id for the call, when it has one. */
  toolUseId?: string;
}

/**
 * Answers a permission question no hook settled: a prompt in your UI, a rule, a remote
 * approver. Anything but `"allow"`, and any error it throws, denies the call.
 */
export type PermissionAnswerer = (
  question: PermissionQuestion,
) => PermissionAnswer | Promise<PermissionAnswer>;

/** Configuration of a {@link PermissionStep}: which calls ask, and who answers. */
export interface PermissionStepOptions {
  /**
   * Which calls fire PermissionRequest even when no PreToolUse hook answers `ask`: a tool-name
   * matcher (`mcp__fs__*`, `Bash|Write`; `"*"` and `""` are every tool), a predicate of the tool name and
   * its arguments, `true` for every call, or `false` / absent for none.
   */
  ask?: string | boolean | ((tool: string, args: ToolArgs) => boolean);
  /**
   * The answer when PermissionRequest hooks neither allow nor deny: a fixed `"allow"` or
   * `"deny"` (reported as `decidedBy: "default"`), or a function that asks someone (reported as
   * `decidedBy: "user"`). Default `"deny"`.
   */
  defaultAnswer?: PermissionAnswer | PermissionAnswerer;
}

/** One tool call that may need permission, as it stands after PreToolUse. */
export interface PermissionCall {
  /** The session the call belongs to. */
  sessionId: string;
  /** The tool that wants to run. */
  tool: string;
  /** The arguments after PreToolUse hooks. */
  args: ToolArgs;
  /** The model's id for the call, passed to the permission events. */
  toolUseId?: string | undefined;
  /** Anything else for the hooks, copied into the permission events. */
  metadata?: Record<string, unknown> | undefined;
  /**
   * The PreToolUse result: its `allow` settles the question, its `ask` forces one, and the
   * reason its hooks gave for `ask` (`permissionReason`) is the question's reason.
   */
  pre?: Pick<HookResult<PreToolUseEvent>, "permission" | "permissionReason"> | undefined;
  /** PermissionRequest's reason, shown to hooks and the answer. Default `<tool> needs permission`. */
  reason?: string | undefined;
  /** Aborts the hook firings of the step. */
  signal?: AbortSignal | undefined;
  /** Told when hooks left the question open, just before the default answer is taken. */
  onQuestion?: ((question: PermissionQuestion) => void | Promise<void>) | undefined;
}

/** The outcome of an allowed call. */
export interface PermissionOutcome {
  /** The arguments to run with: PermissionRequest hooks may have rewritten them. */
  args: ToolArgs;
  /** The PermissionRequest result, when one fired. */
  request?: HookResult<PermissionRequestEvent>;
  /** Who allowed it; absent when the call needed no permission. */
  decidedBy?: PermissionDecider;
}

/** A call whose permission was denied: by a hook, the answerer, or the default answer. */
export class PermissionDeniedError extends HookError {
  /** Always `"PermissionDeniedError"`. */
  override name = "PermissionDeniedError";
  /** The tool that was denied. */
  readonly tool: string;
  /** Why, as PermissionDenied reported it: what the host shows the model. */
  readonly reason: string;
  /** Who denied it: a `hook`, the `user` (the host's answer), or the `default` answer. */
  readonly decidedBy: PermissionDecider;
  /**
   * True when a PermissionDenied hook answered `retry: true`: as Claude Code does, the host
   * tells the model it may try the call again (the denial itself stands).
   */
  readonly retry: boolean;
  constructor(tool: string, reason: string, decidedBy: PermissionDecider, retry = false) {
    super("BLOCKED", `permission denied for ${tool}: ${reason}`, {
      details: { tool, decidedBy },
    });
    this.tool = tool;
    this.reason = reason;
    this.decidedBy = decidedBy;
    this.retry = retry;
  }
}

/** How much of an answerer's error message a PermissionDenied reason quotes. */
const MAX_FAILURE_CHARS = 200;

function invalid(field: readonly (string | number)[], name: string, message: string): HookError {
  const path = [...field, name];
  return new HookError("INVALID_CONFIG", `${path.join(".")}: ${message}`, { path });
}

function compileAsk(
  ask: unknown,
  field: readonly (string | number)[],
): (tool: string, args: ToolArgs) => boolean {
  if (ask === undefined || ask === false) return () => false;
  if (ask === true) return () => true;
  if (typeof ask === "function") {
    const predicate = ask as (tool: string, args: ToolArgs) => unknown;
    return (tool, args) => Boolean(predicate(tool, args));
  }
  if (typeof ask === "string") {
    const test = compileNameMatcher(ask, [...field, "ask"]);
    return test === null ? () => true : (tool) => test(tool);
  }
  throw invalid(
    field,
    "ask",
    `expected a tool-name matcher, a function or a boolean, got ${typeof ask}`,
  );
}

/**
 * The permission step between PreToolUse and the tool, for hosts built on {@link runTool}
 * (pass `authorize` to its `authorize` option). A PreToolUse `allow` settles it; a PreToolUse
 * `ask`, or a call the `ask` option names, fires PermissionRequest, whose hooks deny (block),
 * allow, or leave it to `defaultAnswer`. Every decision fires PermissionGranted or
 * PermissionDenied with `decidedBy` and a reason. A denial rejects with
 * {@link PermissionDeniedError} (a `HookError` with code `BLOCKED`), which the host turns into
 * what its model reads. An answerer that throws, or answers anything but `"allow"`, denies.
 *
 * @example
 * ```ts
 * const permission = new PermissionStep({ ask: "mcp__fs__*", defaultAnswer: "deny" });
 * const result = await runTool(engine, call, execute, {
 *   authorize: async (args, pre) =>
 *     (await permission.authorize(engine, { sessionId, tool: call.tool, args, pre })).args,
 * });
 * ```
 */
export class PermissionStep {
  readonly #asks: (tool: string, args: ToolArgs) => boolean;
  readonly #answer: PermissionAnswer | PermissionAnswerer;

  /**
   * @param field where the options sit in the host's configuration, for error paths
   *   (`["permission"]` makes a bad answer `permission.defaultAnswer`).
   * @throws HookError `INVALID_CONFIG` for an option of the wrong kind, `INVALID_PATTERN` for
   *   a bad matcher.
   */
  constructor(options: PermissionStepOptions = {}, field: readonly (string | number)[] = []) {
    const answer = options.defaultAnswer ?? "deny";
    if (answer !== "allow" && answer !== "deny" && typeof answer !== "function") {
      throw invalid(
        field,
        "defaultAnswer",
        `expected "allow", "deny" or a function, got ${JSON.stringify(answer) ?? typeof answer}`,
      );
    }
    this.#answer = answer;
    this.#asks = compileAsk(options.ask, field);
  }

  /** True when a call to `tool` with `args` asks permission even if no PreToolUse hook asks. */
  asks(tool: string, args: ToolArgs): boolean {
    return this.#asks(tool, args);
  }

  /**
   * Decide one call. Resolves with the arguments to run with; rejects with
   * {@link PermissionDeniedError} when permission is denied.
   */
  async authorize(engine: HookEngine, call: PermissionCall): Promise<PermissionOutcome> {
    const permission = call.pre?.permission;
    if (permission !== "ask" && !this.#asks(call.tool, call.args)) return { args: call.args };
    const fireOptions: FireOptions = call.signal ? { signal: call.signal } : {};
    const base = {
      sessionId: call.sessionId,
      tool: call.tool,
      ...(call.toolUseId !== undefined ? { toolUseId: call.toolUseId } : {}),
      ...(call.metadata !== undefined ? { metadata: call.metadata } : {}),
    };
    const decide = async (
      allowed: boolean,
      args: ToolArgs,
      decidedBy: PermissionDecider,
      reason: string,
      request?: HookResult<PermissionRequestEvent>,
    ): Promise<PermissionOutcome> => {
      const fields = { ...base, args, decidedBy, reason };
      const told = await engine.fire(
        allowed
          ? createEvent("PermissionGranted", fields)
          : createEvent("PermissionDenied", fields),
        fireOptions,
      );
      if (!allowed) {
        const retry = (told.event as { retry?: unknown }).retry === true;
        throw new PermissionDeniedError(call.tool, reason, decidedBy, retry);
      }
      return { args, decidedBy, ...(request ? { request } : {}) };
    };

    if (permission === "allow") {
      return decide(true, call.args, "hook", "allowed by a PreToolUse hook");
    }
    // A PreToolUse hook that asked says why: that is what the person is asked about.
    const hookReason = permission === "ask" ? call.pre?.permissionReason : undefined;
    const reason = hookReason ?? call.reason ?? `${call.tool} needs permission`;
    const request = await engine.fire(
      createEvent("PermissionRequest", { ...base, args: call.args, reason }),
      fireOptions,
    );
    const args = request.event.args;
    if (request.action === "block") {
      return decide(false, args, "hook", request.reason ?? "denied by a hook", request);
    }
    if (request.permission === "allow") {
      return decide(true, args, "hook", "allowed by a PermissionRequest hook", request);
    }

    const question: PermissionQuestion = {
      sessionId: call.sessionId,
      tool: call.tool,
      args,
      reason,
      ...(call.toolUseId !== undefined ? { toolUseId: call.toolUseId } : {}),
    };
    await call.onQuestion?.(question);
    const answerer = this.#answer;
    if (typeof answerer !== "function") {
      const allowed = answerer === "allow";
      const why = allowed ? "allowed by the default answer" : "denied by the default answer";
      return decide(allowed, args, "default", why, request);
    }
    let answer: unknown;
    try {
      answer = await answerer(question);
    } catch (error) {
      // Nobody said yes: a failing prompt must never let the call through.
      const message = HookError.from(error).message.slice(0, MAX_FAILURE_CHARS);
      return decide(false, args, "default", `the answer failed (${message}), so it is no`, request);
    }
    if (answer === "allow") return decide(true, args, "user", "allowed when asked", request);
    if (answer === "deny") return decide(false, args, "user", "denied when asked", request);
    const got = JSON.stringify(answer)?.slice(0, MAX_FAILURE_CHARS) ?? typeof answer;
    return decide(false, args, "default", `the answer ${got} is not "allow", so it is no`, request);
  }
}
