/**
 * What both entries of `@a3s-lab/box` export, Node's (`index.ts`) and browsers'
 * (`browser.ts`): the types SDK users write hooks with, and the pieces other libraries build
 * platforms and transports from. `A3sClient` and `createWebSocketTransport` are not here: each
 * entry binds them to its platform. A test keeps the two entries' names equal.
 */
export type { WebSocketTransportOptions } from "@a3s-lab/hooks-browser";
// ── For SDK users ──────────────────────────────────────────────────────────────
export type {
  AuditConsole,
  AuditEvent,
  AuditLevel,
  AuditTrailOptions,
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
  HookHandle,
  LogAuditOptions,
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
// What a page's (or a process's) own hooks did: a bounded trail, one-line text, the console.
export {
  AuditTrail,
  DEFAULT_HOOK_PORT,
  formatAuditRecord,
  HookError,
  logAudit,
} from "@a3s-lab/hooks-core";
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
