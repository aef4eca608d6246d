/**
 * @a3s-lab/hooks-core/internal: the plumbing the A3S hooks packages share with each other (the
 * emitter, the fold, matcher compilation, validation helpers, templates). Hook authors, hosts
 * and transports need none of it, and it may change in any release.
 */

export { stdoutAnswerField } from "./answer-fields.js";
export { CLAUDE_CODE_INPUT_KEY, claudeCodeExtraInput } from "./claude-code-input.js";
export { randomId } from "./create-event.js";
export { deferDeadlineMs } from "./defer-routing.js";
export { Emitter } from "./emitter.js";
export { isBuiltinEvent, matcherSubject, snakeCase, specOf } from "./event-spec.js";
export { hasMiddleware, mayRunForTool, type ToolProbe } from "./hook-engine.js";
export { describeValue } from "./hook-error.js";
export { checkHookResponse } from "./hook-response.js";
export { InvocationContext } from "./invocation-context.js";
export { copyJsonData, tooDeepField } from "./json-limits.js";
export { applyMergePatch, patchPaths } from "./json-merge-patch.js";
export { checkPlaintextHost, isLoopbackHost } from "./loopback.js";
export type { CompiledMatcher, MatcherOptions, RegexTest } from "./matcher.js";
export { compileMatcher, compileNameMatcher } from "./matcher.js";
export type { MergeOptions, OutcomeInput, OutcomeStatus } from "./merge.js";
export { emptyResult, mergeOutcomes, ResultFolder } from "./merge.js";
export type { ValidRegistration } from "./registration.js";
export { normalizeRegistration } from "./registration.js";
export { suggestEvent, unknownEventMessage } from "./suggest-event.js";
export type { CompiledTemplate, Escaper, PlaceholderContext } from "./template.js";
export { compileTemplate, renderTemplate } from "./template.js";
export { callAborted, defaultTimers, raceAbort, sleep } from "./timers.js";
export {
  describeZodIssue,
  formatPath,
  parseOrThrow,
  renamedOption,
  toHookError,
  validate,
  valueAt,
} from "./validation.js";
export {
  clipText,
  MAX_ANSWER_MODIFIED_BYTES,
  MAX_ANSWER_TEXT_CHARS,
  sendableAnswer,
} from "./wire-response.js";
