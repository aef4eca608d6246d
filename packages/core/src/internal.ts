/**
 * @a3s-lab/hooks-core/internal: the plumbing the A3S hooks packages share with each other (the
 * emitter, the fold, matcher compilation, validation helpers, templates, the built-in events'
 * zod schemas; a user reads an event's schema as `eventSpecs[name].schema`). Hook authors, hosts
 * and transports need none of it, and it may change in any release.
 */

export { Emitter } from "./base/emitter.js";
export { describeValue } from "./base/hook-error.js";
export { copyJsonData, tooDeepField } from "./base/json-limits.js";
export { applyMergePatch, patchPaths } from "./base/json-merge-patch.js";
export { checkPlaintextHost, isLoopbackHost } from "./base/loopback.js";
export type { CompiledTemplate, Escaper, PlaceholderContext } from "./base/template.js";
export { compileTemplate, renderTemplate } from "./base/template.js";
export { callAborted, defaultTimers, raceAbort, sleep } from "./base/timers.js";
export {
  describeZodIssue,
  formatPath,
  parseOrThrow,
  renamedOption,
  toHookError,
  validate,
  valueAt,
} from "./base/validation.js";
export { hasMiddleware, mayRunForTool, type ToolProbe } from "./engine/hook-engine.js";
export { InvocationContext } from "./engine/invocation-context.js";
export type { CompiledMatcher, MatcherOptions, RegexTest } from "./engine/matcher.js";
export { compileMatcher, compileNameMatcher } from "./engine/matcher.js";
export type { ValidRegistration } from "./engine/registration.js";
export { normalizeRegistration } from "./engine/registration.js";
export { stdoutAnswerField } from "./events/answer-fields.js";
export { CLAUDE_CODE_INPUT_KEY, claudeCodeExtraInput } from "./events/claude-code-input.js";
export { randomId } from "./events/create-event.js";
export { eventSchemas, hookEventSchema, jsonObjectSchema } from "./events/event-schemas.js";
export {
  eventAliases,
  isBuiltinEvent,
  matcherSubject,
  snakeCase,
  specOf,
} from "./events/event-spec.js";
export { suggestEvent, unknownEventMessage } from "./events/suggest-event.js";
export { deferDeadlineMs } from "./merge/defer-routing.js";
export { checkHookResponse, hookResponseSchema } from "./merge/hook-response.js";
export type { MergeOptions, OutcomeInput, OutcomeStatus } from "./merge/merge.js";
export { emptyResult, mergeOutcomes, ResultFolder } from "./merge/merge.js";
export {
  clipText,
  MAX_ANSWER_MODIFIED_BYTES,
  MAX_ANSWER_TEXT_CHARS,
  sendableAnswer,
} from "./wire/wire-response.js";
