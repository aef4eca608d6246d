import {
  HookError,
  type HookEventNameInput,
  MAX_DELAY_MS,
  resolveEventName,
  type ToolMatcher,
} from "@a3s-lab/hooks-core";
import {
  compileMatcher,
  parseOrThrow,
  randomId,
  unknownEventMessage,
} from "@a3s-lab/hooks-core/internal";
import {
  type HookConfigMessage,
  type HookInfoMessage,
  type HookMatcherMessage,
  isWireId,
} from "@a3s-lab/hooks-core/wire";
import * as z from "zod/mini";
import type { SyncedHook } from "./hook-sync.js";
import type {
  HandlerOrOptions,
  RemoteHookHandler,
  RemoteHookInfo,
  RemoteHookOptions,
} from "./types.js";

const configSchema = z.strictObject({
  priority: z.optional(z.int32()),
  timeoutMs: z.optional(z.int().check(z.positive(), z.lte(MAX_DELAY_MS))),
  timeout: z.optional(z.int().check(z.positive(), z.lte(MAX_DELAY_MS))),
  async: z.optional(z.boolean()),
  failBehavior: z.optional(z.enum(["continue", "block"])),
  name: z.optional(z.string().check(z.maxLength(256))),
});

const optionsSchema = z.object({
  handler: z.custom<RemoteHookHandler>((h) => typeof h === "function", "expected a function"),
  matcher: z.optional(
    z.union([
      z.string().check(z.maxLength(4096)),
      z.strictObject({
        tool: z.optional(z.string().check(z.maxLength(4096))),
        pathPattern: z.optional(z.string().check(z.maxLength(4096))),
        commandPattern: z.optional(z.string().check(z.maxLength(4096))),
      }),
    ]),
  ),
  config: z.optional(configSchema),
  id: z.optional(z.string().check(z.refine(isWireId, "expected 1 to 100 of A-Z a-z 0-9 . _ -"))),
  signal: z.optional(
    z.custom<AbortSignal>((s) => typeof s === "object" && s !== null && "aborted" in s),
  ),
});

/**
 * Check a `registerHook` call now, synchronously, so a typo fails where it was written: the
 * event name, the handler, the config, and the matcher (compiled here with the same rules the
 * agent applies, then sent as data).
 */
export function toRegistration(
  eventName: HookEventNameInput,
  handlerOrOptions: HandlerOrOptions<HookEventNameInput>,
): SyncedHook {
  const event = typeof eventName === "string" ? resolveEventName(eventName) : undefined;
  if (!event) {
    throw new HookError("UNKNOWN_EVENT", `event: ${unknownEventMessage(eventName)}`, {
      path: ["event"],
    });
  }
  if (typeof (handlerOrOptions as { matcher?: unknown })?.matcher === "function") {
    throw new HookError(
      "INVALID_CONFIG",
      "matcher: matching runs in the agent, so give a string or { tool, pathPattern, commandPattern }, not a function",
      { path: ["matcher"] },
    );
  }
  const options = parseOrThrow(
    optionsSchema,
    typeof handlerOrOptions === "function" ? { handler: handlerOrOptions } : handlerOrOptions,
    "INVALID_CONFIG",
  ) as RemoteHookOptions;
  compileMatcher(event, options.matcher, ["matcher"]);
  const id = options.id ?? randomId();
  const config = options.config ?? {};
  const wireConfig: HookConfigMessage = {};
  if (config.priority !== undefined) wireConfig.priority = config.priority;
  if (
    config.timeout !== undefined &&
    config.timeoutMs !== undefined &&
    config.timeout !== config.timeoutMs
  ) {
    throw new HookError(
      "INVALID_CONFIG",
      "config.timeout: the same as config.timeoutMs, and they differ; give only timeoutMs",
      { path: ["config", "timeout"] },
    );
  }
  const timeoutMs = config.timeoutMs ?? config.timeout;
  if (timeoutMs !== undefined) wireConfig.timeoutMs = timeoutMs;
  if (config.async !== undefined) wireConfig.async = config.async;
  if (config.failBehavior !== undefined) wireConfig.failBehavior = config.failBehavior;
  if (config.name !== undefined) wireConfig.name = config.name;
  const matcher = toWireMatcher(options.matcher);
  return {
    id,
    event,
    handler: options.handler as RemoteHookHandler,
    failBehavior: config.failBehavior,
    name: config.name,
    registered: false,
    request: {
      eventType: event,
      hookId: id,
      config: wireConfig,
      ...(matcher ? { matcher } : {}),
    },
  };
}

function toWireMatcher(matcher: string | ToolMatcher | undefined): HookMatcherMessage | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher === "string") return { pattern: matcher };
  const out: HookMatcherMessage = {};
  if (matcher.tool !== undefined) out.tool = matcher.tool;
  if (matcher.pathPattern !== undefined) out.pathPattern = matcher.pathPattern;
  if (matcher.commandPattern !== undefined) out.commandPattern = matcher.commandPattern;
  return out;
}

/** The agent's listing → the SDK's shape (`timeoutMs`, `failBehavior`, …). */
export function toHookInfo(info: HookInfoMessage): RemoteHookInfo {
  const m = info.matcher;
  let matcher: string | ToolMatcher | undefined;
  if (m?.pattern) matcher = m.pattern;
  else if (m && (m.tool || m.pathPattern || m.commandPattern)) {
    matcher = {};
    if (m.tool) matcher.tool = m.tool;
    if (m.pathPattern) matcher.pathPattern = m.pathPattern;
    if (m.commandPattern) matcher.commandPattern = m.commandPattern;
  }
  const out: RemoteHookInfo = {
    id: info.hookId,
    event: (resolveEventName(info.eventType) ?? info.eventType) as RemoteHookInfo["event"],
    config: {
      priority: info.config.priority ?? 0,
      timeoutMs: info.config.timeoutMs ?? 0,
      timeout: info.config.timeoutMs ?? 0,
      async: info.config.async ?? false,
      failBehavior: info.config.failBehavior ?? "continue",
      ...(info.config.name ? { name: info.config.name } : {}),
    },
    counters: { ...info.counters },
  };
  if (matcher !== undefined) out.matcher = matcher;
  return out;
}
