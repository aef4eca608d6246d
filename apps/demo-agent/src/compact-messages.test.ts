import type { Message } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { compactMessages } from "./compact-messages.js";

const history: Message[] = [
  { role: "system", content: "hook context" },
  { role: "user", content: "bash: ls" },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "Bash", args: { command: "ls" } }],
  },
  { role: "tool", content: "a.md", toolCallId: "c1" },
  { role: "assistant", content: "Done." },
  { role: "user", content: "read a.md" },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c2", name: "Read", args: { file_path: "a.md" } }],
  },
  { role: "tool", content: "x", toolCallId: "c2" },
];

describe("compactMessages", () => {
  it("summarises everything before the latest prompt and keeps the turn whole", () => {
    const c = compactMessages(history, "keep file names");
    expect(c?.removed).toBe(5);
    expect(c?.messages.slice(1)).toEqual(history.slice(5));
    expect(c?.messages[0]?.role).toBe("system");
    expect(c?.summary).toContain("Summary of 5 earlier messages");
    expect(c?.summary).toContain('"bash: ls"');
    expect(c?.summary).toContain("Bash×1");
    expect(c?.summary).toContain("Instructions: keep file names");
  });

  it("has nothing to do when the latest prompt is the first message", () => {
    expect(compactMessages([])).toBeUndefined();
    expect(compactMessages(history.slice(1, 4))).toBeUndefined();
  });
});
