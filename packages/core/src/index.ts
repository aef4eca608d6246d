/**
 * @a3s-lab/hooks-core: the platform-free heart of A3S hooks. Runs unchanged in Node and in
 * browsers. The wire form of hooks.proto, for transports, is in `@a3s-lab/hooks-core/wire`;
 * plumbing shared between the A3S packages is in `@a3s-lab/hooks-core/internal`.
 */

// ── For hook authors: events ─────────────────────────────────────────────────────────────

export type { AnswerField, AnswerFieldInit, AnswerMerge } from "./events/answer-fields.js";
export { MAX_WATCH_PATH_CHARS, MAX_WATCH_PATHS } from "./events/answer-fields.js";
export type { ClaudeCodeEventMap } from "./events/claude-code-events.js";
export { claudeCodeEvents } from "./events/claude-code-events.js";
export type { EventInit } from "./events/create-event.js";
export { createEvent, safeCreateEvent, validateEvent } from "./events/create-event.js";
export type {
  ContextWarningEvent,
  GenerateEndEvent,
  GenerateStartEvent,
  HookEvent,
  HookEventMap,
  HookEventName,
  Message,
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
  ToolCall,
  ToolContext,
  ToolResult,
  UserPromptSubmitEvent,
} from "./events/event-schemas.js";
export type {
  DefinedEventSchema,
  EventSpec,
  EventSpecInit,
  MatcherTarget,
} from "./events/event-spec.js";
export {
  defineEvent,
  eventSpecs,
  hookEventNames,
  isHookEventName,
  resolveEventName,
} from "./events/event-spec.js";

// ── For hook authors: responses ──────────────────────────────────────────────────────────

export type { DeferRouting } from "./merge/defer-routing.js";
export type {
  BlockResponse,
  ContinueResponse,
  HookAction,
  HookResponse,
  PermissionDecision,
  RespondResponse,
  RetryResponse,
  SkipResponse,
} from "./merge/hook-response.js";
export {
  addContext,
  allow,
  ask,
  block,
  CONTINUE,
  continueWith,
  defer,
  deny,
  MAX_DELAY_MS,
  MAX_RESPOND_OUTPUT_CHARS,
  modify,
  respond,
  retry,
  safeParseHookResponse,
  skip,
} from "./merge/hook-response.js";

// ── For hook authors: registrations, matchers, errors ────────────────────────────────────

export type { HookErrorCode, HookErrorOptions } from "./base/hook-error.js";
export { HookError } from "./base/hook-error.js";
export type { Matcher, RegexCompiler, RegexTest, ToolMatcher } from "./engine/matcher.js";
export type {
  CanonicalEventName,
  HookContext,
  HookEventNameInput,
  HookHandle,
  HookHandler,
  HookHandlerResult,
  HookOptions,
  HookRegistration,
  MultiEventHook,
} from "./engine/registration.js";

// ── For hosts: the events' parts as zod schemas ──────────────────────────────────────────

export {
  messageSchema,
  modelConfigSchema,
  tokenUsageSchema,
  toolCallSchema,
  toolContextSchema,
  toolResultSchema,
} from "./events/event-schemas.js";

// ── For hosts: the merged result, other agents' answers read as ours ─────────────────────

export type {
  FailBehavior,
  HookOutcome,
  HookResult,
  OutcomeStatus,
  PatchConflict,
  ToolAnswer,
  TurnStop,
} from "./merge/merge.js";
export type { NormalizeOptions } from "./merge/normalize-output.js";
export { normalizeHookOutput, safeNormalizeHookOutput } from "./merge/normalize-output.js";

// ── For hosts: the engine, the tool and permission flows, middleware, limits ─────────────

export type { SubscribeOptions, Unsubscribe } from "./base/emitter.js";
export { MAX_JSON_DEPTH, MAX_JSON_NODES } from "./base/json-limits.js";
export type { Timers } from "./base/timers.js";
export type { ValidationResult } from "./base/validation.js";
export { runGeneration } from "./engine/generation.js";
export type {
  FireOptions,
  HookEngineOptions,
  HookInfo,
  InputSchema,
} from "./engine/hook-engine.js";
export { HookEngine } from "./engine/hook-engine.js";
export type {
  ContextKey,
  FireAnswer,
  GenerateCall,
  GenerateOutput,
  HookMiddleware,
  MiddlewareContext,
  ToolInvocation,
  ToolOutput,
} from "./engine/middleware.js";
export { contextKey } from "./engine/middleware.js";
export type {
  PermissionAnswer,
  PermissionAnswerer,
  PermissionCall,
  PermissionDecider,
  PermissionOutcome,
  PermissionQuestion,
  PermissionStepOptions,
} from "./engine/permission-step.js";
export { PermissionDeniedError, PermissionStep } from "./engine/permission-step.js";
export type { GuardedToolResult, RunToolOptions } from "./engine/tool-guard.js";
export { runTool, ToolBlockedError, TurnStoppedError } from "./engine/tool-guard.js";

// ── For hosts: the audit stream ──────────────────────────────────────────────────────────

export type {
  ApprovalAuditStep,
  AuditEvent,
  AuditEventOf,
  AuditEventType,
  AuditLevel,
  AuditListener,
  AuditSource,
} from "./audit/audit.js";
export { auditLevelOf, auditTypeFilter, onAudit } from "./audit/audit.js";
export type { AuditConsole, LogAuditOptions } from "./audit/audit-format.js";
export { formatAuditRecord, logAudit } from "./audit/audit-format.js";
export type { AuditTrailOptions } from "./audit/audit-trail.js";
export { AuditTrail } from "./audit/audit-trail.js";
export type { AuditEvents } from "./engine/audit-stream.js";
