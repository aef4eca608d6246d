import type { Message } from "@a3s-lab/hooks-core";

export interface Compaction {
  /** The history after compaction: one summary message, then the kept tail. */
  messages: Message[];
  summary: string;
  /** How many messages the summary replaced. */
  removed: number;
}

function clip(text: string, max: number): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Replace everything before the latest user message with one summary message. The cut is at a
 * user message so a tool result is never separated from the call it answers. Returns
 * undefined when there is nothing before that message to compact.
 *
 * Deterministic on purpose: a real agent would ask the model for the summary; the demo keeps
 * the prompts, the tools used and the count, which is what the hooks need to see.
 *
 * @example
 * ```ts
 * const c = compactMessages(session.messages, "Keep file names.");
 * if (c) session.messages = c.messages;
 * ```
 */
export function compactMessages(
  messages: readonly Message[],
  instructions?: string,
): Compaction | undefined {
  let cut = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return undefined;
  const head = messages.slice(0, cut);
  const prompts = head.filter((m) => m.role === "user").map((m) => clip(m.content, 60));
  const tools = new Map<string, number>();
  for (const m of head)
    for (const c of m.toolCalls ?? []) tools.set(c.name, (tools.get(c.name) ?? 0) + 1);
  const toolText = [...tools].map(([name, n]) => `${name}×${n}`).join(", ") || "none";
  const summary = [
    `Summary of ${head.length} earlier messages.`,
    `Requests: ${
      prompts
        .slice(-5)
        .map((p) => JSON.stringify(p))
        .join("; ") || "none"
    }.`,
    `Tools used: ${toolText}.`,
    ...(instructions ? [`Instructions: ${clip(instructions, 200)}`] : []),
  ].join(" ");
  return {
    messages: [{ role: "system", content: summary }, ...messages.slice(cut)],
    summary,
    removed: head.length,
  };
}
