import {
  type HookEngine,
  HookError,
  type HookResult,
  PermissionDeniedError,
  PermissionStep,
  runTool,
  type ToolArgs,
  ToolBlockedError,
} from "@a3s-lab/hooks-core";
import { hasMiddleware, mayRunForTool } from "@a3s-lab/hooks-core/internal";
import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from "ai";
import { checkOptions, is } from "./check-options.js";
import type { PermissionAnswerer } from "./permission.js";

/** Options of {@link withHooks}. */
export interface WithHooksOptions {
  /** The session the tool events belong to (their `sessionId`). */
  sessionId: string;
  /**
   * Which calls need permission before they run: `true` for every call, or a function of the
   * tool name and arguments. Default: none, unless a PreToolUse hook answers `ask`. A
   * PreToolUse `allow` waives it.
   */
  requirePermission?: boolean | ((tool: string, args: ToolArgs) => boolean);
  /**
   * Answers permission questions no PermissionRequest hook settled (the call's `toolCallId` is
   * the question's `toolUseId`). Anything but `"allow"`, and any error it throws, denies the
   * call; without it open questions are denied.
   */
  ask?: PermissionAnswerer;
  /** How often a hook's `retry` is honoured before the call fails. Default 3. */
  maxRetries?: number;
  /** Added to every tool event's `metadata`. */
  metadata?: Record<string, unknown>;
}

/**
 * What a tool returns when a hook blocked its call or its permission was denied: the model
 * reads it as the tool's result, and the run goes on.
 */
export interface BlockedToolOutput {
  /** Always true: tells a blocked call from a tool's own output. */
  blocked: true;
  /** The hook's reason, shown to the model. */
  reason: string;
  /** `hook` when a PreToolUse hook blocked, `permission` when permission was denied. */
  by: "hook" | "permission";
}

/** True when a tool result is a {@link BlockedToolOutput}. */
export function isBlockedOutput(output: unknown): output is BlockedToolOutput {
  return (
    typeof output === "object" &&
    output !== null &&
    (output as BlockedToolOutput).blocked === true &&
    typeof (output as BlockedToolOutput).reason === "string"
  );
}

/**
 * The tools as {@link withHooks} returns them. A blocked call yields a {@link BlockedToolOutput};
 * a call whose output a PostToolUse hook rewrote, or to which hooks added context, yields text.
 */
export type HookedTools<T extends ToolSet> = {
  [K in keyof T]: T[K] extends Tool<infer I, infer O>
    ? Tool<I, O | string | BlockedToolOutput>
    : T[K];
};

function blockedText(output: BlockedToolOutput): string {
  return output.by === "hook"
    ? `Blocked by a hook: ${output.reason}`
    : `Permission denied: ${output.reason}`;
}

/** Every event the tool flow can fire. */
const TOOL_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PermissionGranted",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
] as const;

/**
 * True when no hook could see this tool call: none registered for any tool event, all off, or
 * none whose matcher fits this tool and these arguments (and no audit listener for firings).
 */
function isQuiet(engine: HookEngine, name: string, input: unknown): boolean {
  // A middleware wraps every tool call, hooks or none.
  if (hasMiddleware(engine)) return false;
  if (!engine.enabled) return true;
  let any = false;
  for (const event of TOOL_EVENTS) if (engine.has(event)) any = true;
  if (!any) return true;
  // Which hooks match is known from the tool and its arguments alone, unless a hook's
  // matcher is its author's own predicate (then the flow runs, as it always did).
  return (
    isPlainObject(input) &&
    !mayRunForTool(engine, TOOL_EVENTS, { eventType: "PreToolUse", tool: name, args: input })
  );
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is ToolArgs {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Names of the hooks whose patches changed the event, for error messages. */
function modifiers(results: (HookResult | undefined)[]): string {
  const names: string[] = [];
  for (const result of results) {
    for (const outcome of result?.outcomes ?? []) {
      if (outcome.modifiedPaths?.length) names.push(JSON.stringify(outcome.name ?? outcome.hookId));
    }
  }
  return names.length > 0 ? `hook ${names.join(", ")}` : "a hook";
}

async function lastValue(value: unknown): Promise<unknown> {
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function"
  ) {
    return value;
  }
  // A streaming tool's last value is its result; the preliminary ones are not forwarded.
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}

function outputText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

function wrapTool(
  name: string,
  tool: Tool,
  engine: HookEngine,
  options: WithHooksOptions,
  permission: PermissionStep,
): Tool {
  const execute = tool.execute;
  if (typeof execute !== "function") return tool;
  const schema = asSchema(tool.inputSchema);
  const policy = options.requirePermission;
  // A policy is asked about object inputs; any other input under a policy goes to the flow,
  // which refuses it.
  const policyApplies = (input: unknown) =>
    policy !== undefined &&
    policy !== false &&
    (!isPlainObject(input) || permission.asks(name, input));
  const hooked = async (input: unknown, call: ToolExecutionOptions): Promise<unknown> => {
    if (isQuiet(engine, name, input) && !policyApplies(input)) {
      // Nothing would fire: skip building the events. Checked per call, so a hook registered
      // later (a remote client connecting, say) governs the next call.
      return lastValue(await execute(input, call));
    }
    if (!isPlainObject(input)) {
      // Hooks judge tool arguments as an object; anything else is refused, never waved through.
      throw new HookError(
        "INVALID_EVENT",
        `${name}: hooks need an object input, got ${kindOf(input)}`,
        { path: ["input"] },
      );
    }
    let value: unknown;
    let ran = false;
    try {
      const result = await runTool(
        engine,
        {
          sessionId: options.sessionId,
          tool: name,
          args: input,
          toolUseId: call.toolCallId,
          ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
        },
        async (args) => {
          ran = true;
          value = await lastValue(await execute(args, call));
          return { output: outputText(value) };
        },
        {
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          ...(call.abortSignal !== undefined ? { signal: call.abortSignal } : {}),
          authorize: async (args, pre) => {
            const decided = await permission.authorize(engine, {
              sessionId: options.sessionId,
              tool: name,
              args,
              toolUseId: call.toolCallId,
              metadata: options.metadata,
              pre,
              signal: call.abortSignal,
            });
            if (decided.args === input) return input;
            // The model's input was checked by the SDK; what hooks wrote in its place is
            // checked here, so the tool never sees arguments its schema rejects.
            const checked = await schema.validate?.(decided.args);
            if (checked && !checked.success) {
              throw new HookError(
                "INVALID_MODIFICATION",
                `${name}: the arguments ${modifiers([pre, decided.request])} wrote do not fit the tool's input schema: ${checked.error.message}`,
                { path: ["args"], cause: checked.error, details: { tool: name } },
              );
            }
            return checked ? (checked.value as ToolArgs) : decided.args;
          },
        },
      );
      // An engine middleware answered in place of the tool: its output is the value.
      if (!ran) value = result.output;
      if (
        !result.post.modified &&
        result.additionalContext === undefined &&
        result.feedback === undefined
      ) {
        return value;
      }
      // A PostToolUse rewrite, a PostToolUse block's reason (feedback: the tool already ran) or
      // context hooks added for the model turns the result into text.
      const text = result.post.modified ? result.output : outputText(value);
      const feedback = result.feedback === undefined ? "" : `\n[hook feedback] ${result.feedback}`;
      const context =
        result.additionalContext === undefined
          ? ""
          : `\n[hook context] ${result.additionalContext}`;
      return `${text}${feedback}${context}`;
    } catch (error) {
      if (error instanceof ToolBlockedError) {
        return { blocked: true, reason: error.reason, by: "hook" } satisfies BlockedToolOutput;
      }
      if (error instanceof PermissionDeniedError) {
        return {
          blocked: true,
          reason: error.reason,
          by: "permission",
        } satisfies BlockedToolOutput;
      }
      throw error;
    }
  };
  const toModelOutput = tool.toModelOutput;
  return {
    ...tool,
    execute: hooked,
    ...(toModelOutput
      ? {
          toModelOutput: (part: Parameters<typeof toModelOutput>[0]) =>
            isBlockedOutput(part.output)
              ? { type: "text" as const, value: blockedText(part.output) }
              : toModelOutput(part),
        }
      : {}),
  } as Tool;
}

/**
 * Wrap the `execute` of each tool with the hook flow: PreToolUse (hooks may block, retry or
 * rewrite the arguments), PermissionRequest when a hook or `requirePermission` asks, the tool,
 * then PostToolUse (hooks may rewrite the output) or PostToolUseFailure. A blocked or denied
 * call returns a {@link BlockedToolOutput} the model reads, so the run goes on. Arguments a
 * hook rewrote are checked against the tool's input schema; a misfit is a tool error naming
 * the hook. Tools without `execute` are returned as they are.
 *
 * @example
 * ```ts
 * const engine = new HookEngine();
 * engine.register({ event: "PreToolUse", matcher: "weather", handler: () => block("no weather today") });
 * const result = await generateText({
 *   model,
 *   tools: withHooks({ weather }, engine, { sessionId: "s1" }),
 *   stopWhen: stepCountIs(5),
 *   prompt: "Weather in Paris?",
 * });
 * ```
 */
export function withHooks<T extends ToolSet>(
  tools: T,
  engine: HookEngine,
  options: WithHooksOptions,
): HookedTools<T> {
  checkOptions(options, {
    sessionId: { check: is.string, expected: "a string", required: true },
    requirePermission: { check: is.booleanOrFunction, expected: "a boolean or a function" },
    ask: { check: is.function, expected: "a function" },
    maxRetries: { check: is.count, expected: "a non-negative integer" },
    metadata: { check: is.object, expected: "an object" },
  });
  const permission = new PermissionStep({
    ...(options.requirePermission !== undefined ? { ask: options.requirePermission } : {}),
    defaultAnswer: options.ask ?? "deny",
  });
  const out: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools))
    out[name] = wrapTool(name, tool as Tool, engine, options, permission);
  return out as HookedTools<T>;
}
