import type { PermissionAnswerer, ToolArgs } from "@a3s-lab/hooks-core";

/** A call whose permission was denied, by a hook, the asker, or the default (core's class). */
export { PermissionDeniedError } from "@a3s-lab/hooks-core";

/** A permission question that hooks left open. */
export interface PermissionQuestion {
  /** The session the call belongs to. */
  sessionId: string;
  /** The tool that wants to run. */
  tool: string;
  /** The arguments it would run with, as the hooks left them. */
  args: ToolArgs;
  /** The AI SDK's id for the call. */
  toolCallId: string;
}

/**
 * Answers a permission question no hook settled: a prompt in your UI, a rule, a fixed answer.
 * Without one, open questions are denied; an asker that throws, or answers anything but
 * `"allow"`, denies too.
 */
export type PermissionAsker = (
  question: PermissionQuestion,
) => "allow" | "deny" | Promise<"allow" | "deny">;

/** Core's answerer for an asker: the question in this package's shape. */
export function answererFor(ask: PermissionAsker): PermissionAnswerer {
  return (q) =>
    ask({ sessionId: q.sessionId, tool: q.tool, args: q.args, toolCallId: q.toolUseId ?? "" });
}
