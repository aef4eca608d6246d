import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The text hooks see as a tool's output: the result's text items, one per line. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") parts.push(item.text);
  }
  return parts.join("\n");
}

/** A tool result the model reads as a failure: how blocks and denials reach an MCP client. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * The result with its output replaced by what PostToolUse hooks left. Every content item
 * gives way to the one new text (a rewrite usually redacts, so nothing of the original may
 * stay beside it). Structured content keeps its shape where its strings repeat the old text
 * (the common `{ content: text }`); otherwise it is dropped, for the same reason.
 */
export function rewriteResult(result: CallToolResult, output: string): CallToolResult {
  const texts = new Set<string>([resultText(result)]);
  for (const item of result.content ?? []) if (item.type === "text") texts.add(item.text);
  const { structuredContent, content: _content, ...rest } = result;
  const next: CallToolResult = { ...rest, content: [{ type: "text", text: output }] };
  if (structuredContent !== undefined) {
    let replaced = false;
    let leftOver = false;
    const swap = (value: unknown): unknown => {
      if (typeof value === "string") {
        if (texts.has(value)) {
          replaced = true;
          return output;
        }
        leftOver = true;
        return value;
      }
      if (Array.isArray(value)) return value.map(swap);
      if (value !== null && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
      }
      return value;
    };
    const swapped = swap(structuredContent) as Record<string, unknown>;
    if (replaced && !leftOver) next.structuredContent = swapped;
  }
  return next;
}

/** The result with the hooks' context for the model appended as one more text item. */
export function withContext(result: CallToolResult, context: string | undefined): CallToolResult {
  if (!context) return result;
  return { ...result, content: [...(result.content ?? []), { type: "text", text: context }] };
}
