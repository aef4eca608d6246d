/**
 * @a3s-lab/hooks-ai-sdk: A3S hooks for the Vercel AI SDK. Tool wrappers, a language-model
 * middleware and session helpers that fire the same hooks as any A3S agent.
 */

// ── Sessions, prompts and Stop ────────────────────────────────────────────────
export type {
  HookSessionOptions,
  RunResult,
  SubmittedPrompt,
  TurnResult,
} from "./hook-session.js";
export { HookSession, PromptBlockedError } from "./hook-session.js";
// ── Model calls ───────────────────────────────────────────────────────────────
export type { HooksMiddlewareOptions } from "./hooks-middleware.js";
export { GenerateBlockedError, hooksMiddleware } from "./hooks-middleware.js";
export type { PermissionAnswerer, PermissionQuestion } from "./permission.js";
export { PermissionDeniedError } from "./permission.js";
// ── Tools ─────────────────────────────────────────────────────────────────────
export type { BlockedToolOutput, HookedTools, WithHooksOptions } from "./with-hooks.js";
export { isBlockedOutput, withHooks } from "./with-hooks.js";
