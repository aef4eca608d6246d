import type {
  CreateSessionRequest,
  CreateSessionResponse,
  DestroySessionRequest,
  DestroySessionResponse,
  ExecuteToolRequest,
  ExecuteToolResponse,
  GenerateEventMessage,
  GenerateRequest,
} from "@a3s-lab/hooks-core";

/** Who is calling, and when to stop: handed to every {@link AgentService} method. */
export interface AgentCallContext {
  /** The authenticated caller. */
  readonly clientId: string;
  /** Aborted when the caller cancels or disconnects, or the server closes. */
  readonly signal: AbortSignal;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * What an agent host implements so SDK users can drive it: `hooks.proto`'s AgentService, in
 * wire (JSON) form. Pass it to `createHookServer({ agent })`; every transport serves it.
 * Throw a `HookError` to fail a call with a precise code (`NOT_FOUND` for an unknown session,
 * `INVALID_EVENT` for bad arguments, …).
 *
 * @example
 * ```ts
 * const agent: AgentService = {
 *   createSession: () => ({ sessionId: randomId() }),
 *   destroySession: ({ sessionId }) => ({ destroyed: sessions.delete(sessionId) }),
 *   async *generate({ sessionId, prompt }) {
 *     yield { progress: { kind: "text", text: "thinking…" } };
 *     yield { result: { text: await run(sessionId, prompt) } };
 *   },
 *   executeTool: ({ sessionId, tool, args }) => runOneTool(sessionId, tool, args),
 * };
 * ```
 */
export interface AgentService {
  createSession(
    request: CreateSessionRequest,
    ctx: AgentCallContext,
  ): MaybePromise<CreateSessionResponse>;
  destroySession(
    request: DestroySessionRequest,
    ctx: AgentCallContext,
  ): MaybePromise<DestroySessionResponse>;
  /** Progress messages, then exactly one `{ result }`. */
  generate(request: GenerateRequest, ctx: AgentCallContext): AsyncIterable<GenerateEventMessage>;
  /** Run one tool through the agent's hooks (PreToolUse, PostToolUse, …). */
  executeTool(
    request: ExecuteToolRequest,
    ctx: AgentCallContext,
  ): MaybePromise<ExecuteToolResponse>;
}
