import type { DeferRouting, Message, TokenUsage, ToolCall } from "@a3s-lab/hooks-core";
import * as z from "zod";
import { AgentError } from "./agent-error.js";

/** Bumped when the shape of {@link ParkedContext} changes; an older agent refuses a newer one. */
export const PARKED_CONTEXT_VERSION = 1;

/**
 * What the agent saves beside a deferred call so that another process can pick the turn up:
 * the conversation up to the call, the call, the calls of the same step after it, and the
 * session's own state. It is the approval's `context`.
 */
export interface ParkedContext {
  version: typeof PARKED_CONTEXT_VERSION;
  /** The session the call belongs to (also the approval's `sessionId`). */
  sessionId: string;
  /** The folder the session's file tools are confined to. */
  workdir: string;
  /** Where its Bash commands ran (the workdir, or a folder inside it a `cd` moved to). */
  cwd: string;
  /**
   * The conversation up to the deferred call: it ends with the assistant message asking for the
   * step's calls, then the results of those before the deferred one.
   */
  messages: Message[];
  /** The deferred call, as the model asked for it. */
  call: ToolCall;
  /** The calls of the same step after the deferred one; none of them ran. */
  rest: ToolCall[];
  /** The text the model wrote with the step's calls. */
  text: string;
  /** Tool names the session used lately (PreToolUse's `recentTools`). */
  recentTools: string[];
  /** Tokens the session used so far. */
  usage: TokenUsage;
  /** The session's metadata, as SessionStart hooks left it. */
  metadata: Record<string, unknown>;
}

/** A call the agent parked: what it tells the user. */
export interface ParkedCall {
  /** The approval's id: what `a3s-hooks approvals approve` takes. */
  approvalId: string;
  sessionId: string;
  tool: string;
  toolUseId: string;
  /** The hook's reason for deferring. */
  reason: string;
}

/**
 * Parks a deferred call durably (an approval store's `park`, in the CLI) and resolves with the
 * approval's id once it is written. The agent reports the call as waiting only after that.
 */
export type ParkCall = (request: {
  sessionId: string;
  toolName: string;
  toolUseId: string;
  toolInput: unknown;
  reason: string;
  /** Who may decide and by when, as the deferring hooks said (their deadline is a duration). */
  routing?: DeferRouting;
  context: ParkedContext;
}) => Promise<{ id: string; deadline?: string | undefined }>;

const toolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
});

const messageSchema = z
  .object({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolCallId: z.string().optional(),
  })
  .passthrough();

const contextSchema = z.object({
  version: z.literal(PARKED_CONTEXT_VERSION),
  sessionId: z.string().min(1),
  workdir: z.string().min(1),
  cwd: z.string().min(1),
  messages: z.array(messageSchema),
  call: toolCallSchema,
  rest: z.array(toolCallSchema),
  text: z.string(),
  recentTools: z.array(z.string()),
  usage: z.object({
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
    total_tokens: z.number(),
  }),
  metadata: z.record(z.string(), z.unknown()),
});

/**
 * Read an approval's saved context back. Throws `INVALID_INPUT` naming the field when it is
 * not one this agent wrote (another program parked the call, or a newer version of the agent).
 */
export function readParkedContext(value: unknown, approvalId: string): ParkedContext {
  const parsed = contextSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ["context", ...(issue?.path ?? [])].filter((p) => typeof p !== "symbol") as (
      | string
      | number
    )[];
    throw new AgentError(
      "INVALID_INPUT",
      `approval ${approvalId}: ${field.join(".")}: ${issue?.message ?? "invalid"} (not a call this agent parked)`,
      { path: field },
    );
  }
  return parsed.data as ParkedContext;
}
