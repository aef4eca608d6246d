import {
  HookError,
  type HookEventName,
  type HookInfo,
  type ToolMatcher,
} from "@a3s-lab/hooks-core";
import type {
  HookConfigMessage,
  HookInfoMessage,
  HookMatcherMessage,
  RegisterHookRequest,
} from "@a3s-lab/hooks-core/wire";

/** One hook a remote client registered, as the hub keeps it. */
export interface RemoteHook {
  /** The client's id for it. */
  readonly hookId: string;
  /** The id it has on the host's engine: `<clientId>/<hookId>`. */
  readonly engineId: string;
  readonly event: HookEventName;
  readonly matcher: HookMatcherMessage | undefined;
  readonly config: HookConfigMessage;
  /** The timeout the engine applies (the request's, or the engine's default). */
  readonly timeout: number;
  /** Answers thrown away: malformed, late, or for an unknown event id. */
  rejectedResponses: number;
}

const TOOL_FIELDS = ["tool", "pathPattern", "commandPattern"] as const;

/**
 * The wire matcher → the engine's: `pattern` becomes a string matcher, the tool fields an
 * object matcher, nothing (or only empty fields) no matcher at all.
 */
export function toEngineMatcher(
  matcher: HookMatcherMessage | undefined,
): string | ToolMatcher | undefined {
  if (!matcher) return undefined;
  const tool: ToolMatcher = {};
  for (const key of TOOL_FIELDS) if (matcher[key]) tool[key] = matcher[key];
  const hasTool = Object.keys(tool).length > 0;
  if (matcher.pattern && hasTool) {
    throw new HookError(
      "INVALID_CONFIG",
      "RegisterHookRequest.matcher: give either pattern or tool/pathPattern/commandPattern, not both",
      { path: ["RegisterHookRequest", "matcher"] },
    );
  }
  if (matcher.pattern) return matcher.pattern;
  return hasTool ? tool : undefined;
}

/** True when two registrations of the same hook id describe the same hook. */
export function sameDefinition(hook: RemoteHook, request: RegisterHookRequest): boolean {
  const clean = (value: object | undefined) =>
    JSON.stringify(
      Object.entries(value ?? {})
        .filter(([, v]) => v !== undefined && v !== "" && v !== 0 && v !== false)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  return (
    clean(hook.matcher) === clean(request.matcher) && clean(hook.config) === clean(request.config)
  );
}

/** A hook as ListHooks shows it to its owner: its definition with the host's defaults filled in. */
export function toHookInfoMessage(hook: RemoteHook, info: HookInfo | undefined): HookInfoMessage {
  const config: HookConfigMessage = {
    priority: info?.priority ?? hook.config.priority ?? 0,
    timeoutMs: info?.timeout ?? hook.timeout,
    async: info?.async ?? hook.config.async ?? false,
    failBehavior: info?.failBehavior ?? hook.config.failBehavior ?? "continue",
  };
  if (hook.config.name) config.name = hook.config.name;
  const message: HookInfoMessage = {
    hookId: hook.hookId,
    eventType: hook.event,
    config,
    counters: {
      runs: info?.stats.runs ?? 0,
      blocks: info?.stats.blocks ?? 0,
      failures: info?.stats.failures ?? 0,
      timeouts: info?.stats.timeouts ?? 0,
      rejectedResponses: hook.rejectedResponses,
    },
  };
  if (hook.matcher) message.matcher = hook.matcher;
  return message;
}
