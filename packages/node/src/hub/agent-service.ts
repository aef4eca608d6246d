import { HookError } from "@a3s-lab/hooks-core";
import {
  type CreateSessionRequest,
  type CreateSessionResponse,
  type DestroySessionRequest,
  type DestroySessionResponse,
  type ExecuteToolRequest,
  type ExecuteToolResponse,
  type GenerateEventMessage,
  type GenerateRequest,
  parseWireMessage,
  type WireMessageMap,
  type WireMessageType,
} from "@a3s-lab/hooks-core/wire";

/** Who is calling, and when to stop: handed to every {@link AgentService} method. */
export interface AgentCallContext {
  /** The authenticated caller. */
  readonly clientId: string;
  /** Aborted when the caller cancels or disconnects, or the server closes. */
  readonly signal: AbortSignal;
}

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
  /** Start a session and answer its id. */
  createSession(
    request: CreateSessionRequest,
    ctx: AgentCallContext,
  ): CreateSessionResponse | Promise<CreateSessionResponse>;
  /** End a session. */
  destroySession(
    request: DestroySessionRequest,
    ctx: AgentCallContext,
  ): DestroySessionResponse | Promise<DestroySessionResponse>;
  /** Progress messages, then exactly one `{ result }`. */
  generate(request: GenerateRequest, ctx: AgentCallContext): AsyncIterable<GenerateEventMessage>;
  /** Run one tool through the agent's hooks (PreToolUse, PostToolUse, …). */
  executeTool(
    request: ExecuteToolRequest,
    ctx: AgentCallContext,
  ): ExecuteToolResponse | Promise<ExecuteToolResponse>;
}

/**
 * Check what the host's implementation returned, for every transport alike: a bad answer is
 * the host's bug, `INTERNAL`.
 */
export function answer<K extends WireMessageType>(type: K, value: unknown): WireMessageMap[K] {
  const result = parseWireMessage(type, value);
  if (!result.success) {
    throw new HookError(
      "INTERNAL",
      `the agent returned an invalid ${type}: ${result.error.message}`,
    );
  }
  return result.data;
}

/**
 * The host's `generate`, as every transport serves it: each event checked, nothing after the
 * `result` (the host's iterator is returned), and `INTERNAL` when it ends without one. Stops
 * quietly once `ctx.signal` is aborted; the transport reports the abort its own way.
 */
export async function* checkedGenerate(
  agent: AgentService,
  request: GenerateRequest,
  ctx: AgentCallContext,
): AsyncGenerator<GenerateEventMessage, void, undefined> {
  for await (const event of agent.generate(request, ctx)) {
    if (ctx.signal.aborted) return;
    const checked = answer("GenerateEvent", event);
    yield checked;
    if ("result" in checked) return;
  }
  if (!ctx.signal.aborted) {
    throw new HookError("INTERNAL", "the agent's generate ended without a result");
  }
}
