/**
 * @a3s-lab/box for browsers (export condition `browser`).
 *
 * Placeholder until the WebSocket transport of `@a3s-lab/hooks-browser` lands (issue 6): it
 * becomes `defaultTransport` here. Until then a page passes `options.transport` itself. This
 * entry must never import `@a3s-lab/hooks-node`.
 */
import { A3sClientBase } from "./a3s-client.js";
import type { A3sClientOptions, ClientPlatform } from "./types.js";

const browser: ClientPlatform = {
  env: () => undefined,
  defaultTransport: undefined,
  noTransportReason:
    "browsers have no default transport yet (the WebSocket one comes with @a3s-lab/hooks-browser); pass options.transport",
};

/** Register hooks with an A3S agent from a web page. See the Node entry for examples. */
export class A3sClient extends A3sClientBase {
  constructor(options: A3sClientOptions = {}) {
    super(options, browser);
  }
}

// ── For SDK users ──────────────────────────────────────────────────────────────
export type {
  AuditEvent,
  AuditLevel,
  ContextWarningEvent,
  ExecuteToolResponse,
  FailBehavior,
  GenerateEndEvent,
  GenerateEventMessage,
  GenerateProgress,
  GenerateResult,
  GenerateStartEvent,
  HookContext,
  HookEventMap,
  HookEventName,
  ModelConfig,
  NotificationEvent,
  PermissionDeniedEvent,
  PermissionGrantedEvent,
  PermissionRequestEvent,
  PostCompactEvent,
  PostToolUseEvent,
  PostToolUseFailureEvent,
  PreCompactEvent,
  PreToolUseEvent,
  SessionEndEvent,
  SessionStartEvent,
  SkillLoadEvent,
  SkillUnloadEvent,
  StopEvent,
  SubagentStartEvent,
  SubagentStopEvent,
  TokenUsage,
  ToolArgs,
  ToolMatcher,
  ToolResult,
  Transport,
  TransportFactory,
  TransportOptions,
  UserPromptSubmitEvent,
} from "@a3s-lab/hooks-core";
export { DEFAULT_HOOK_PORT, HookError } from "@a3s-lab/hooks-core";
// ── For other libraries: platforms and transports ─────────────────────────────
export { A3sClientBase } from "./a3s-client.js";
export type { A3sClientEventName, A3sClientEvents } from "./client-events.js";
export { HookEvent, HookResponse } from "./hook-values.js";
export type {
  A3sClientOptions,
  ClientPlatform,
  ConnectionState,
  HandlerOrOptions,
  RemoteHookConfig,
  RemoteHookContext,
  RemoteHookHandler,
  RemoteHookInfo,
  RemoteHookOptions,
  TemporaryHook,
} from "./types.js";
