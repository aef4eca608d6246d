import type { Message } from "@a3s-lab/hooks-core";

/**
 * A rough token count: about four characters a token for English and code. Good enough for a
 * context budget; a real provider's usage numbers replace it where they exist.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimated tokens of a conversation, counting tool calls' arguments too. */
export function estimateMessageTokens(messages: readonly Message[], systemPrompt = ""): number {
  let chars = systemPrompt.length;
  for (const m of messages) {
    // A few tokens of framing per message, as chat formats add.
    chars += m.content.length + 16;
    for (const call of m.toolCalls ?? [])
      chars += call.name.length + JSON.stringify(call.args).length;
  }
  return Math.ceil(chars / 4);
}
