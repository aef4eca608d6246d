import { realpath } from "node:fs/promises";
import path from "node:path";
import { type GenerateEventMessage, HookError, type HookErrorCode } from "@a3s-lab/hooks-core";
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
 * the server's token, and seed 000's auto-format example has one client's hook run tools in
 * a session another client drives.
 *
 * @example
 * ```ts
 * const server = await createHookServer({ engine: agent.engine, token, agent: createAgentService(agent, { workdir }) });
 * ```
 */
export function createAgentService(agent: Agent, options: { workdir: string }): AgentService {
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
      try {
        const created = await agent.createSession({
          workdir,
          source: "sdk",
          ...(request.sessionId ? { id: request.sessionId } : {}),
          metadata: { ...(request.metadata ?? {}), clientId: ctx.clientId },
        });
        return { sessionId: created.id };
      } catch (error) {
        throw toWireError(error);
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
