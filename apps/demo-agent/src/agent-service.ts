import { realpath } from "node:fs/promises";
import path from "node:path";
import { HookError, type HookErrorCode } from "@a3s-lab/hooks-core";
import type { GenerateEventMessage } from "@a3s-lab/hooks-core/wire";
import type { AgentService } from "@a3s-lab/hooks-node";
import type { Agent } from "./agent.js";
import { AgentError, type AgentErrorCode } from "./agent-error.js";
import type { ProgressUpdate } from "./agent-options.js";
import { mainArgument } from "./transcript.js";
import { isInside } from "./workspace-path.js";

const CODES: Record<AgentErrorCode, HookErrorCode> = {
  INVALID_INPUT: "INVALID_EVENT",
  OUTSIDE_WORKSPACE: "PERMISSION_DENIED",
  NOT_FOUND: "NOT_FOUND",
  TOOL_FAILED: "INTERNAL",
  TIMEOUT: "TIMEOUT",
  BLOCKED: "BLOCKED",
  MODEL_ERROR: "UNAVAILABLE",
  ABORTED: "ABORTED",
  INTERNAL: "INTERNAL",
};

/**
 * The most live sessions one SDK client may hold at once: a quarter of what the env files allow
 * (1024) would still let four clients starve the rest, so far fewer.
 */
export const MAX_SESSIONS_PER_CLIENT = 64;

/** An agent failure as the HookError the hook server turns into a status. */
function toWireError(error: unknown): HookError {
  if (HookError.is(error)) return error;
  const e = AgentError.from(error);
  return new HookError(CODES[e.code], e.message, { cause: e, path: e.path });
}

function progressOf(update: ProgressUpdate): GenerateEventMessage {
  switch (update.kind) {
    case "text":
      return { progress: { kind: "text", text: update.text } };
    case "tool_call":
      return {
        progress: {
          kind: "tool_call",
          text: `${update.tool} ${mainArgument(update.tool, update.args)}`,
          data: { tool: update.tool, args: update.args, toolUseId: update.toolUseId },
        },
      };
    default:
      return {
        progress: {
          kind: "tool_result",
          text: update.output,
          data: { tool: update.tool, toolUseId: update.toolUseId, status: update.status },
        },
      };
  }
}

/**
 * The demo's implementation of the hook server's `AgentService`: serve an {@link Agent} to SDK
 * clients (sessions, generate with a progress stream, executeTool), through the same hooks as
 * the agent's own calls. Sessions live in `workdir` (or a folder inside it a
 * client names; never outside). Any authenticated client may use any session: they share
 * the server's token, and the auto-format example (`examples/src/auto-format.ts`) has one
 * client's hook run tools in a session another client drives. One client holds at most
 * `maxSessionsPerClient` live
 * sessions (default {@link MAX_SESSIONS_PER_CLIENT}; past it `LIMIT_EXCEEDED` naming the
 * limit), so one client cannot take every session (and env file) from the others; its
 * sessions' watched files are charged to it in the agent's `WatchBudget`.
 *
 * @example
 * ```ts
 * const server = await createHookServer({ engine: agent.engine, token, agent: createAgentService(agent, { workdir }) });
 * ```
 */
export function createAgentService(
  agent: Agent,
  options: { workdir: string; maxSessionsPerClient?: number | undefined },
): AgentService {
  const maxSessions = options.maxSessionsPerClient ?? MAX_SESSIONS_PER_CLIENT;
  /** Who created each live session, by session id. */
  const creators = new Map<string, string>();
  /** Creations still running (SessionStart takes time), by client. */
  const starting = new Map<string, number>();
  const sessionsOf = (clientId: string) => {
    const live = new Set(agent.sessions.map((s) => s.id));
    let count = starting.get(clientId) ?? 0;
    for (const [id, creator] of creators) {
      if (!live.has(id))
        creators.delete(id); // ended some other way than destroySession
      else if (creator === clientId) count++;
    }
    return count;
  };
  let root: Promise<string> | undefined;
  const session = (id: string) => {
    try {
      return agent.getSession(id);
    } catch (error) {
      throw toWireError(error);
    }
  };
  return {
    async createSession(request, ctx) {
      const base = await (root ??= realpath(options.workdir));
      let workdir = base;
      if (request.workingDirectory) {
        const wanted = await realpath(path.resolve(base, request.workingDirectory)).catch(() => {
          throw new HookError(
            "NOT_FOUND",
            `workingDirectory: ${request.workingDirectory} does not exist`,
            {
              path: ["workingDirectory"],
            },
          );
        });
        if (!isInside(base, wanted)) {
          throw new HookError(
            "PERMISSION_DENIED",
            `workingDirectory: sessions must stay inside ${base}`,
            { path: ["workingDirectory"] },
          );
        }
        workdir = wanted;
      }
      if (sessionsOf(ctx.clientId) >= maxSessions) {
        throw new HookError(
          "LIMIT_EXCEEDED",
          `sessions: this client already has ${maxSessions} sessions (maxSessionsPerClient); destroy one first`,
          { path: ["sessionId"], details: { limit: maxSessions } },
        );
      }
      // Counted while SessionStart runs, so concurrent calls cannot pass the cap together.
      starting.set(ctx.clientId, (starting.get(ctx.clientId) ?? 0) + 1);
      try {
        const created = await agent.createSession({
          workdir,
          source: "sdk",
          owner: ctx.clientId,
          ...(request.sessionId ? { id: request.sessionId } : {}),
          metadata: { ...(request.metadata ?? {}), clientId: ctx.clientId },
        });
        creators.set(created.id, ctx.clientId);
        return { sessionId: created.id };
      } catch (error) {
        throw toWireError(error);
      } finally {
        const left = (starting.get(ctx.clientId) ?? 1) - 1;
        if (left > 0) starting.set(ctx.clientId, left);
        else starting.delete(ctx.clientId);
      }
    },

    async destroySession(request) {
      let found: ReturnType<typeof agent.getSession>;
      try {
        found = agent.getSession(request.sessionId);
      } catch {
        return { destroyed: false };
      }
      await agent.endSession(found, request.reason || "destroyed");
      return { destroyed: true };
    },

    async *generate(request, ctx) {
      const target = session(request.sessionId);
      const queue: GenerateEventMessage[] = [];
      let wake: (() => void) | undefined;
      let settled = false;
      let failure: unknown;
      const push = (message: GenerateEventMessage) => {
        queue.push(message);
        wake?.();
      };
      agent
        .respond(target, request.prompt, {
          signal: ctx.signal,
          onProgress: (u) => push(progressOf(u)),
        })
        .then(
          (reply) =>
            push({
              result: {
                text: reply.text,
                usage: {
                  promptTokens: reply.usage.prompt_tokens,
                  completionTokens: reply.usage.completion_tokens,
                  totalTokens: reply.usage.total_tokens,
                },
                ...(reply.blocked !== undefined ? { blocked: true, reason: reply.blocked } : {}),
              },
            }),
          (error: unknown) => {
            failure = error;
          },
        )
        .finally(() => {
          settled = true;
          wake?.();
        });
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (settled) {
          if (failure !== undefined) throw toWireError(failure);
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },

    async executeTool(request, ctx) {
      const target = session(request.sessionId);
      const started = performance.now();
      let outcome: Awaited<ReturnType<Agent["executeTool"]>>;
      try {
        outcome = await agent.executeTool(target, request.tool, request.args, ctx.signal);
      } catch (error) {
        throw toWireError(error);
      }
      const blocked = outcome.status === "blocked" || outcome.status === "denied";
      return {
        success: outcome.status === "ok",
        output: outcome.output,
        ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
        durationMs: Math.max(0, performance.now() - started),
        ...(blocked ? { blocked: true, reason: outcome.output } : {}),
      };
    },
  };
}
