import { describe, expect, it } from "vitest";
import { resultText, rewriteResult, withContext } from "./tool-result.js";

describe("rewriteResult", () => {
  it("replaces every content item with the new text", () => {
    const result = rewriteResult(
      {
        content: [
          { type: "text", text: "a secret" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      },
      "redacted",
    );
    expect(result.content).toEqual([{ type: "text", text: "redacted" }]);
  });

  it("rewrites structured content whose strings repeat the text, keeping its shape", () => {
    const result = rewriteResult(
      { content: [{ type: "text", text: "TOKEN=1" }], structuredContent: { content: "TOKEN=1" } },
      "gone",
    );
    expect(result.structuredContent).toEqual({ content: "gone" });
  });

  it("drops structured content that holds anything else, so no copy of the original stays", () => {
    const result = rewriteResult(
      {
        content: [{ type: "text", text: "TOKEN=1" }],
        structuredContent: { content: "TOKEN=1", raw: "TOKEN=1 (from /etc/env)" },
      },
      "gone",
    );
    expect(result).not.toHaveProperty("structuredContent");
    expect(JSON.stringify(result)).not.toContain("TOKEN=1");
  });
});

describe("resultText and withContext", () => {
  it("joins the text items, one per line, and appends context as one more item", () => {
    const result = {
      content: [
        { type: "text" as const, text: "a" },
        { type: "text" as const, text: "b" },
      ],
    };
    expect(resultText(result)).toBe("a\nb");
    expect(withContext(result, "mind the gap").content.at(-1)).toEqual({
      type: "text",
      text: "mind the gap",
    });
    expect(withContext(result, undefined)).toBe(result);
  });
});
