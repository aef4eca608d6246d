import {
  eventSpecs,
  type HookEngine,
  HookError,
  type HookEventName,
  type HookResult,
  type Timers,
} from "@a3s-lab/hooks-core";
import { defaultTimers, sleep } from "@a3s-lab/hooks-core/internal";
import type {
  HookCallback,
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
  HookEvent as SdkHookEvent,
} from "@anthropic-ai/claude-agent-sdk";
import { fromSdkInput } from "./from-sdk-input.js";
import {
  isDefinedReadyEvent,
  isReadyEvent,
  type ReadySdkEvent,
  readyEvents,
  toReadyOutput,
} from "./ready-events.js";
import { type BridgedSdkEvent, bridgedEvents, isBridgedEvent } from "./sdk-events.js";
import { toSdkOutput } from "./to-sdk-output.js";

/** The `hooks` option of the Claude Agent SDK's `query()`. */
export type AgentSdkHooks = Partial<Record<SdkHookEvent, HookCallbackMatcher[]>>;

/** Options of {@link toAgentSdkHooks}. */
export interface AgentSdkHooksOptions {
  /**
   * The SDK events to bridge. Default: every event that has an A3S equivalent, and each of
   * Claude Code's other events whose ready definition the host has defined by now.
   */
  events?: readonly (BridgedSdkEvent | ReadySdkEvent)[];
  /**
   * The SDK's timeout for the bridge's callbacks, in seconds (`HookCallbackMatcher.timeout`).
   * Default: the SDK's own. Give a remote approval (a person clicking in a browser) the time
   * it needs here as well as in the hook's own timeout.
   */
  timeout?: number;
  /**
   * How often a `retry` answer is honoured for an event that can block before the bridge
   * gives up and blocks. Default 3, as core's tool guard.
   */
  maxRetries?: number;
  /**
   * The SDK's `onFailure` for events that can block: `"block"` (default) makes the SDK block the
   * action when the bridge's callback fails or misses the SDK's timeout, which it otherwise lets
   * go ahead. `"continue"` leaves the SDK's default, for a Claude Code too old for the option
   * (the query then fails at startup).
   */
  onFailure?: "block" | "continue";
  /** Timers for the retry delay and the answer deadline; inject fakes in tests. */
  timers?: Timers;
}

const DEFAULT_MAX_RETRIES = 3;

/**
 * The SDK's own timeout for a hook callback, in seconds, when the matcher gives none: 600 for
 * most events, 30 for UserPromptSubmit and the model switches, 10 for MessageDisplay, 1.5 for
 * SessionEnd (it runs during shutdown), as the Agent SDK's hooks page states.
 */
function sdkDefaultTimeoutSeconds(event: string): number {
  switch (event) {
    case "UserPromptSubmit":
    case "PreModelSwitch":
    case "PostModelSwitch":
      return 30;
    case "MessageDisplay":
      return 10;
    case "SessionEnd":
      return 1.5;
    default:
      return 600;
  }
}

/**
 * How long the bridge waits for the hooks before it answers on its own: the SDK's timeout less
 * a tenth (at most a second), so the answer reaches the SDK before it stops waiting.
 */
function answerBudgetMs(event: string, timeout: number | undefined): number {
  const ms = (timeout ?? sdkDefaultTimeoutSeconds(event)) * 1000;
  return ms - Math.min(1000, ms / 10);
}

function invalidOption(field: string, message: string): HookError {
  return new HookError("INVALID_CONFIG", `options.${field}: ${message}`, {
    path: ["options", field],
  });
}

function checkOptions(engine: HookEngine, options: AgentSdkHooksOptions): void {
  const e = engine as Partial<HookEngine> | null | undefined;
  if (typeof e?.fire !== "function" || typeof e.has !== "function") {
    throw new HookError("INVALID_CONFIG", "engine: expected a HookEngine", { path: ["engine"] });
  }
  if (options === null || typeof options !== "object") {
    throw new HookError("INVALID_CONFIG", "options: expected an object", { path: ["options"] });
  }
  const { events, timeout, maxRetries, onFailure } = options;
  if (onFailure !== undefined && onFailure !== "block" && onFailure !== "continue") {
    throw invalidOption("onFailure", `expected "block" or "continue", got ${String(onFailure)}`);
  }
  if (events !== undefined) {
    if (!Array.isArray(events)) throw invalidOption("events", "expected an array of event names");
    events.forEach((name, i) => {
      if (isReadyEvent(name) && !isDefinedReadyEvent(name)) {
        throw invalidOption(
          `events[${i}]`,
          `${name} is not defined yet: call defineEvent(claudeCodeEvents.${name}) first`,
        );
      }
      if (!isBridgedEvent(name) && !isReadyEvent(name)) {
        throw invalidOption(
          `events[${i}]`,
          `${JSON.stringify(name)} is not an SDK event the bridge maps (one of ${Object.keys(bridgedEvents).join(", ")})`,
        );
      }
    });
  }
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0 && timeout < 1e9)) {
    throw invalidOption("timeout", `expected a positive number of seconds, got ${String(timeout)}`);
  }
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && maxRetries >= 0)) {
    throw invalidOption("maxRetries", `expected a whole number >= 0, got ${String(maxRetries)}`);
  }
}

/** A result that blocks, for input the hooks never saw. */
function blockedResult(reason: string): HookResult {
  return {
    action: "block",
    reason,
    event: undefined as never,
    modified: false,
    systemMessages: [],
    suppressOutput: false,
    outcomes: [],
    conflicts: [],
    warnings: [],
  };
}

/**
 * Why a hook's rewrite of a tool call was refused (its arguments broke the event's or the
 * tool's schema), or undefined. The call then must not run: neither with arguments the tool
 * refuses, nor with the ones the hook meant to replace, whatever the hook's fail behaviour.
 */
function refusedRewrite(result: HookResult): string | undefined {
  for (const outcome of result.outcomes) {
    if (outcome.ignored || outcome.error?.code !== "INVALID_MODIFICATION") continue;
    const tool = (result.event as { tool?: string }).tool ?? "the tool";
    return `hook ${outcome.name ?? outcome.hookId} rewrote the ${tool} call into arguments that are refused: ${outcome.error.message}`;
  }
  return undefined;
}

/**
 * One SDK hook callback that fires the A3S event for whatever bridged SDK event it is called
 * with, and answers in the SDK's JSON (see {@link toSdkOutput}). The SDK's `AbortSignal`
 * aborts the firing.
 *
 * - No hook registered for the event (or the engine disabled): answers `{}` at once.
 * - An SDK event with no A3S equivalent: answers `{}`.
 * - Input that does not fit the A3S event (a `tool_input` that is not an object, …): a
 *   warning in the engine's audit stream, and, for an event that can block while hooks are
 *   registered for it, a block naming the field, since those hooks could not be asked.
 * - `retry`: waits the delay and fires again, at most `maxRetries` times, then blocks.
 * - A hook rewrote a tool call into arguments its schema refuses (the event's, or the tool's
 *   from the engine's `toolSchemas`): the call is denied with a reason naming that hook.
 */
export function createAgentSdkHook(
  engine: HookEngine,
  options: AgentSdkHooksOptions = {},
): HookCallback {
  checkOptions(engine, options);
  const timers = options.timers ?? defaultTimers;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;

  return async (input: HookInput, toolUseID, callOptions): Promise<HookJSONOutput> => {
    const sdkEvent = (input as { hook_event_name?: unknown } | null | undefined)?.hook_event_name;
    if (!isBridgedEvent(sdkEvent) && !isDefinedReadyEvent(sdkEvent)) return {};
    // A ready event's name is an A3S event name once defined (the host extends HookEventMap).
    const name = (isBridgedEvent(sdkEvent) ? bridgedEvents[sdkEvent] : sdkEvent) as HookEventName;
    if (!engine.enabled || !engine.has(name)) return {};
    const canBlock = eventSpecs[name].canBlock;
    // A fail-closed hook must deny, not leave the SDK a callback that failed or never answered:
    // the SDK lets the action go ahead then.
    const failClosed = () =>
      canBlock && engine.list({ event: name }).some((h) => h.failBehavior === "block");
    const budget = answerBudgetMs(sdkEvent, options.timeout);
    const controller = new AbortController();
    const outer = callOptions?.signal;
    const stop = () => controller.abort(outer?.reason);
    if (outer?.aborted) stop();
    else outer?.addEventListener("abort", stop, { once: true });
    let timer: unknown;
    const late = new Promise<"late">((resolve) => {
      timer = timers.setTimeout(() => resolve("late"), budget);
    });
    try {
      const answer = await Promise.race([
        decide(input, toolUseID, sdkEvent, name, canBlock, controller.signal),
        late,
      ]);
      if (answer !== "late") return answer;
      const message = `${sdkEvent}: the hooks did not answer within ${budget / 1000} s, before the SDK's own timeout`;
      controller.abort(new HookError("TIMEOUT", message));
      engine.warn(`claude-agent-sdk: ${message}`, { event: name });
      return failClosed() ? answerFor(blockedResult(message), sdkEvent) : {};
    } catch (error) {
      const message = `${sdkEvent}: the hooks failed: ${HookError.from(error, "HANDLER_FAILED").message}`;
      engine.warn(`claude-agent-sdk: ${message}`, { event: name });
      return failClosed() ? answerFor(blockedResult(message), sdkEvent) : {};
    } finally {
      timers.clearTimeout(timer);
      outer?.removeEventListener("abort", stop);
    }
  };

  async function decide(
    input: HookInput,
    toolUseID: string | undefined,
    sdkEvent: BridgedSdkEvent | ReadySdkEvent,
    name: HookEventName,
    canBlock: boolean,
    signal: AbortSignal,
  ): Promise<HookJSONOutput> {
    const fireOptions = { signal };

    let result: HookResult | undefined;
    for (let attempt = 0; ; attempt++) {
      // A fresh event (and event id) per attempt, as core's tool guard does.
      const mapped = fromSdkInput(input, toolUseID);
      if (!mapped?.success) {
        const message = mapped?.error.message ?? `${sdkEvent}: input could not be mapped`;
        engine.warn(`claude-agent-sdk: ${message}`, { event: name });
        if (!canBlock) return {};
        result = blockedResult(`the hooks could not check this ${sdkEvent}: ${message}`);
        break;
      }
      result = await engine.fire(mapped.data, fireOptions);
      if (result.action !== "retry" || !canBlock) break;
      if (attempt >= maxRetries) {
        result = {
          ...result,
          action: "block",
          reason: `${sdkEvent}: hooks asked to retry more than ${maxRetries} times`,
        };
        break;
      }
      await sleep(result.retryDelay ?? 0, timers, signal);
    }

    if (result.action !== "block" && (name === "PreToolUse" || name === "PermissionRequest")) {
      const refused = refusedRewrite(result);
      if (refused !== undefined) result = { ...result, action: "block", reason: refused };
    }
    if (
      sdkEvent === "PermissionRequest" &&
      result.action !== "block" &&
      result.modified &&
      result.permission !== "allow"
    ) {
      // The SDK takes new arguments only together with an allow; a hook's rewrite must not
      // turn into a permission it did not give.
      engine.warn(
        "claude-agent-sdk: PermissionRequest: a hook changed the arguments without allowing the call; the SDK accepts new arguments only with an allow, so they were not sent",
        { event: name, eventId: result.event.eventId },
      );
    }
    return answerFor(result, sdkEvent);
  }
}

/** The SDK's JSON for a merged result, in the form of the event's kind. */
function answerFor(result: HookResult, sdkEvent: BridgedSdkEvent | ReadySdkEvent): HookJSONOutput {
  return isReadyEvent(sdkEvent) ? toReadyOutput(result, sdkEvent) : toSdkOutput(result, sdkEvent);
}

/**
 * The engine as the `hooks` option of the Claude Agent SDK's `query()`: one callback for each
 * SDK event that has an A3S equivalent, with no SDK matcher, so the engine's own matchers
 * decide (tool names are the SDK's: `Bash`, `Write`, `mcp__server__tool`). TypeScript hooks,
 * settings-file command hooks and remote `A3sClient` hooks registered on the engine, now or
 * later, all govern the session.
 *
 * @example
 * ```ts
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { block, HookEngine } from "@a3s-lab/hooks-core";
 * import { toAgentSdkHooks } from "@a3s-lab/hooks-claude-agent-sdk";
 *
 * const engine = new HookEngine();
 * engine.register({ event: "PreToolUse", matcher: "Bash", handler: (e) =>
 *   String(e.args.command).includes("rm -rf") ? block("no recursive deletes") : undefined });
 * for await (const message of query({ prompt: "Tidy up", options: { hooks: toAgentSdkHooks(engine) } })) {
 *   console.log(message.type);
 * }
 * ```
 */
export function toAgentSdkHooks(
  engine: HookEngine,
  options: AgentSdkHooksOptions = {},
): AgentSdkHooks {
  const callback = createAgentSdkHook(engine, options);
  const events = options.events ?? [
    ...(Object.keys(bridgedEvents) as BridgedSdkEvent[]),
    ...readyEvents.filter(isDefinedReadyEvent),
  ];
  const hooks: AgentSdkHooks = {};
  const onFailure = options.onFailure ?? "block";
  for (const event of events) {
    hooks[event] = [
      {
        hooks: [callback],
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
        ...(onFailure === "block" &&
        eventSpecs[(isBridgedEvent(event) ? bridgedEvents[event] : event) as HookEventName].canBlock
          ? { onFailure }
          : {}),
      },
    ];
  }
  return hooks;
}
