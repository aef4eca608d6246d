/**
 * What both entries of `@a3s-lab/box` export, Node's (`index.ts`) and browsers'
 * (`browser.ts`). `A3sClient` and `createWebSocketTransport` are not here: each entry binds
 * them to its platform. A test keeps the two entries' names equal.
 */

// ── For hook authors: events, responses, registrations ─────────────────────────

export type {
  ContextWarningEvent,
  DeferRouting,
  FailBehavior,
  GenerateEndEvent,
  GenerateStartEvent,
  HookContext,
  HookEventMap,
  HookEventName,
  HookHandle,
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
  UserPromptSubmitEvent,
} from "@a3s-lab/hooks-core";
export { HookError } from "@a3s-lab/hooks-core";
export type {
  ExecuteToolResponse,
  GenerateEventMessage,
  GenerateProgress,
  GenerateResult,
} from "@a3s-lab/hooks-core/wire";
export { DEFAULT_HOOK_PORT } from "@a3s-lab/hooks-core/wire";
export type { A3sClientEventName, A3sClientEvents } from "./client-events.js";
export { HookEvent, HookResponse } from "./hook-values.js";
export type {
  A3sClientOptions,
  ConnectionState,
  HandlerOrOptions,
  RemoteHookConfig,
  RemoteHookContext,
  RemoteHookHandler,
  RemoteHookInfo,
  RemoteHookOptions,
  TemporaryHook,
} from "./types.js";

// ── For hosts: what this process's hooks did, kept, shown and logged ───────────

export type {
  AuditConsole,
  AuditEvent,
  AuditLevel,
  AuditTrailOptions,
  LogAuditOptions,
} from "@a3s-lab/hooks-core";
export { AuditTrail, formatAuditRecord, logAudit } from "@a3s-lab/hooks-core";

// ── For transports: the client on another platform, or over another transport ──

export type { WebSocketTransportOptions } from "@a3s-lab/hooks-browser";
export type { Transport, TransportFactory, TransportOptions } from "@a3s-lab/hooks-core/wire";
export { A3sClientBase } from "./a3s-client.js";
export type { ClientPlatform } from "./types.js";
