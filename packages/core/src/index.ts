/**
 * @a3s-lab/hooks-core: the platform-free heart of A3S hooks.
 * Runs unchanged in Node and in browsers.
 */

export type {
  AuditEvent,
  AuditEventOf,
  AuditEventType,
  AuditLevel,
  AuditSource,
} from "./audit.js";
// ── Audit ─────────────────────────────────────────────────────────────────────
export { auditLevelOf, auditTypeFilter, onAudit } from "./audit.js";
export type { AuditConsole, LogAuditOptions } from "./audit-format.js";
export { formatAuditRecord, logAudit } from "./audit-format.js";
export type { AuditTrailOptions } from "./audit-trail.js";
export { AuditTrail } from "./audit-trail.js";
export type { EventInit } from "./create-event.js";
// ── Events ────────────────────────────────────────────────────────────────────
export { createEvent, randomId, tryCreateEvent, validateEvent } from "./create-event.js";
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
export type { EventSpec, MatcherTarget } from "./event-spec.js";
export {
  eventAliases,
  eventSpecs,
  hookEventNames,
  isHookEventName,
  matcherSubject,
  resolveEventName,
  snakeCaseEventName,
} from "./event-spec.js";
export type {
  FireOptions,
  HookEngineOptions,
  HookInfo,
  InputSchema,
  Unsubscribe,
} from "./hook-engine.js";
// ── For hook authors and agent hosts ──────────────────────────────────────────
export { HookEngine } from "./hook-engine.js";
export type { HookErrorCode, HookErrorOptions } from "./hook-error.js";
export { describeValue, HookError } from "./hook-error.js";
export type {
  BlockResponse,
  ContinueResponse,
  HookAction,
  HookResponse,
  PermissionDecision,
  RetryResponse,
  SkipResponse,
} from "./hook-response.js";
export {
  addContext,
  allow,
  ask,
  block,
  CONTINUE,
  checkHookResponse,
  deny,
  hookResponseSchema,
  MAX_DELAY_MS,
  modify,
  proceed,
  retry,
  skip,
} from "./hook-response.js";
export { InvocationContext } from "./invocation-context.js";
export { copyJsonData, MAX_JSON_DEPTH, MAX_JSON_NODES, tooDeepField } from "./json-limits.js";
export { applyMergePatch, patchPaths } from "./json-merge-patch.js";
export type {
  CompiledMatcher,
  Matcher,
  MatcherOptions,
  RegexCompiler,
  RegexTest,
  ToolMatcher,
} from "./matcher.js";
export { compileMatcher, compileNameMatcher } from "./matcher.js";
export type {
  FailBehavior,
  HookOutcome,
  HookResult,
  MergeOptions,
  OutcomeInput,
  OutcomeStatus,
  PatchConflict,
} from "./merge.js";
export { emptyResult, mergeOutcomes, ResultFolder } from "./merge.js";
export type { NormalizeOptions } from "./normalize-output.js";
// ── For other libraries: transports, executors, settings loaders ─────────────
export { normalizeHookOutput, tryNormalizeHookOutput } from "./normalize-output.js";
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
  ValidRegistration,
} from "./registration.js";
export { normalizeRegistration } from "./registration.js";
export type { CompiledTemplate, Escaper, PlaceholderContext } from "./template.js";
export { compileTemplate, renderTemplate } from "./template.js";
export type { Timers } from "./timers.js";
export { defaultTimers, sleep } from "./timers.js";
export type {
  GuardedToolResult,
  RunToolOptions,
  ToolInvocation,
  ToolOutput,
} from "./tool-guard.js";
export { runTool, ToolBlockedError } from "./tool-guard.js";
// ── Remote hooks: the wire form of hooks.proto, and the client's transport seam ──
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
export type { ValidationResult } from "./validation.js";
export {
  describeZodIssue,
  formatPath,
  parseOrThrow,
  toHookError,
  validate,
  valueAt,
} from "./validation.js";
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
export { answersChecked } from "./checked-answers.js";
