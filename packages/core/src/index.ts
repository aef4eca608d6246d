/**
 * @a3s-lab/hooks-core: the platform-free heart of A3S hooks. Runs unchanged in Node and in
 * browsers. Plumbing shared between the A3S packages is in `@a3s-lab/hooks-core/internal`.
 */

// ── For hook authors: events, responses, registrations ─────────────────────────

export type { AnswerField, AnswerFieldInit, AnswerMerge } from "./answer-fields.js";
export { MAX_WATCH_PATH_CHARS, MAX_WATCH_PATHS } from "./answer-fields.js";
export type { ClaudeCodeEventMap } from "./claude-code-events.js";
export { claudeCodeEvents } from "./claude-code-events.js";
export type { EventInit } from "./create-event.js";
export { createEvent, safeCreateEvent, validateEvent } from "./create-event.js";
export type { DeferRouting } from "./defer-routing.js";
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
} from "./event-schemas.js";
export type {
  DefinedEventSchema,
  EventSpec,
  EventSpecInit,
  MatcherTarget,
} from "./event-spec.js";
export {
  defineEvent,
  eventAliases,
  eventSpecs,
  hookEventNames,
  isHookEventName,
  resolveEventName,
} from "./event-spec.js";
export type { HookErrorCode, HookErrorOptions } from "./hook-error.js";
export { HookError } from "./hook-error.js";
export type {
  BlockResponse,
  ContinueResponse,
  HookAction,
  HookResponse,
  PermissionDecision,
  RespondResponse,
  RetryResponse,
  SkipResponse,
} from "./hook-response.js";
export {
  addContext,
  allow,
  ask,
  block,
  CONTINUE,
  continueWith,
  defer,
  deny,
  hookResponseSchema,
  MAX_DELAY_MS,
  MAX_RESPOND_OUTPUT_CHARS,
  modify,
  respond,
  retry,
  safeParseHookResponse,
  skip,
} from "./hook-response.js";
export type { Matcher, RegexCompiler, RegexTest, ToolMatcher } from "./matcher.js";
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
} from "./registration.js";

// ── For hosts: the engine, the tool flow, the audit stream, limits ─────────────

export type {
  ApprovalAuditStep,
  AuditEvent,
  AuditEventOf,
  AuditEventType,
  AuditLevel,
  AuditListener,
  AuditSource,
} from "./audit.js";
export { auditLevelOf, auditTypeFilter, onAudit } from "./audit.js";
export type { AuditConsole, LogAuditOptions } from "./audit-format.js";
export { formatAuditRecord, logAudit } from "./audit-format.js";
export type { AuditEvents } from "./audit-stream.js";
export type { AuditTrailOptions } from "./audit-trail.js";
export { AuditTrail } from "./audit-trail.js";
export type { SubscribeOptions, Unsubscribe } from "./emitter.js";
export {
  eventSchemas,
  hookEventSchema,
  jsonObjectSchema,
  messageSchema,
  modelConfigSchema,
  tokenUsageSchema,
  toolCallSchema,
  toolContextSchema,
  toolResultSchema,
} from "./event-schemas.js";
export { runGeneration } from "./generation.js";
export type { FireOptions, HookEngineOptions, HookInfo, InputSchema } from "./hook-engine.js";
export { HookEngine } from "./hook-engine.js";
export { MAX_JSON_DEPTH, MAX_JSON_NODES } from "./json-limits.js";
export type {
  FailBehavior,
  HookOutcome,
  HookResult,
  OutcomeStatus,
  PatchConflict,
  ToolAnswer,
  TurnStop,
} from "./merge.js";
export type {
  ContextKey,
  FireAnswer,
  GenerateCall,
  GenerateOutput,
  HookMiddleware,
  MiddlewareContext,
} from "./middleware.js";
export { contextKey } from "./middleware.js";
export type { NormalizeOptions } from "./normalize-output.js";
export { normalizeHookOutput, safeNormalizeHookOutput } from "./normalize-output.js";
export type {
  PermissionAnswer,
  PermissionAnswerer,
  PermissionCall,
  PermissionDecider,
  PermissionOutcome,
  PermissionQuestion,
  PermissionStepOptions,
} from "./permission-step.js";
export { PermissionDeniedError, PermissionStep } from "./permission-step.js";
export type { Timers } from "./timers.js";
export type {
  GuardedToolResult,
  RunToolOptions,
  ToolInvocation,
  ToolOutput,
} from "./tool-guard.js";
export { runTool, ToolBlockedError, TurnStoppedError } from "./tool-guard.js";
export type { ValidationResult } from "./validation.js";

// ── For transports: the wire form of hooks.proto, and the client's transport seam ──

export { answersChecked } from "./checked-answers.js";
export type {
  CallOptions,
  HookStream,
  HookStreamHandlers,
  Transport,
  TransportFactory,
  TransportOptions,
  UnaryCalls,
  UnaryMethod,
} from "./transport.js";
export type {
  CancelMessage,
  CreateSessionRequest,
  CreateSessionResponse,
  DestroySessionRequest,
  DestroySessionResponse,
  ErrorMessage,
  ExecuteToolRequest,
  ExecuteToolResponse,
  GenerateEventMessage,
  GenerateProgress,
  GenerateRequest,
  GenerateResult,
  HelloMessage,
  HookConfigMessage,
  HookCounters,
  HookEventMessage,
  HookInfoMessage,
  HookMatcherMessage,
  HookResponseMessage,
  ListHooksRequest,
  ListHooksResponse,
  RegisterHookRequest,
  RegisterHookResponse,
  TokenUsageMessage,
  UnregisterHookRequest,
  UnregisterHookResponse,
  WelcomeMessage,
  WireMessageMap,
  WireMessageType,
} from "./wire.js";
export { DEFAULT_HOOK_PORT, isWireId, PROTOCOL, WIRE_HEADERS, wireSchemas } from "./wire.js";
export type { WireFrame } from "./wire-frame.js";
export { MAX_FRAME_CHARS, parseWireFrame, parseWireMessage, WS_CLOSE_CODES } from "./wire-frame.js";
export type { CheckedAnswer } from "./wire-response.js";
export { fromHookResponse, readHookResponse, toHookResponse } from "./wire-response.js";
