import type { Message } from "@a3s-lab/hooks-core";
import { tokenUsageSchema } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { parseDirectives, ScriptedModel } from "./scripted-model.js";

describe("parseDirectives", () => {
  it("understands every directive, one per line, and ignores other lines", () => {
    const prompt = [
      "Please do the following.",
      "bash: ls -la | wc -l",
      "read notes.md",
      "write notes.md: line one\\nline two\\\\n",
      "edit notes.md: one => 1",
      "glob **/*.md",
      "grep TODO",
      "grep TODO in src",
      "task: read notes.md\\ngrep 1",
      "skill: careful-shell",
      "say: all done",
    ].join("\n");
    expect(parseDirectives(prompt)).toEqual([
      { kind: "tool", tool: "Bash", args: { command: "ls -la | wc -l" } },
      { kind: "tool", tool: "Read", args: { file_path: "notes.md" } },
      {
        kind: "tool",
        tool: "Write",
        args: { file_path: "notes.md", content: "line one\nline two\\n" },
      },
      {
        kind: "tool",
        tool: "Edit",
        args: { file_path: "notes.md", old_string: "one", new_string: "1" },
      },
      { kind: "tool", tool: "Glob", args: { pattern: "**/*.md" } },
      { kind: "tool", tool: "Grep", args: { pattern: "TODO" } },
      { kind: "tool", tool: "Grep", args: { pattern: "TODO", path: "src" } },
      {
        kind: "tool",
        tool: "Task",
        args: { description: "read notes.md", prompt: "read notes.md\ngrep 1" },
      },
      { kind: "tool", tool: "Skill", args: { name: "careful-shell" } },
      { kind: "say", text: "all done" },
    ]);
  });

  it("finds nothing in plain text, and survives hostile input", () => {
    expect(parseDirectives("hello there\nhow are you?")).toEqual([]);
    expect(parseDirectives("")).toEqual([]);
    const huge = `bash: ${"x".repeat(200_000)}`;
    expect(parseDirectives(huge)).toHaveLength(1);
    expect(parseDirectives("write : nothing")).toEqual([]);
  });
});

describe("ScriptedModel", () => {
  const user = (content: string): Message => ({ role: "user", content });

  it("answers one tool call per step, then sums up the results", async () => {
    const model = new ScriptedModel();
    const messages: Message[] = [user("bash: echo hi\nread a.md")];
    const first = await model.generate({ messages, tools: [] });
    expect(first.text).toBe("");
    expect(first.toolCalls).toEqual([{ id: "call_1", name: "Bash", args: { command: "echo hi" } }]);
    messages.push({ role: "assistant", content: "", toolCalls: first.toolCalls });
    messages.push({ role: "tool", content: "hi", toolCallId: "call_1" });
    const second = await model.generate({ messages, tools: [] });
    expect(second.toolCalls).toEqual([{ id: "call_2", name: "Read", args: { file_path: "a.md" } }]);
    messages.push({ role: "assistant", content: "", toolCalls: second.toolCalls });
    messages.push({ role: "tool", content: "contents\nmore", toolCallId: "call_2" });
    const last = await model.generate({ messages, tools: [] });
    expect(last.toolCalls).toEqual([]);
    expect(last.text).toBe("Done. Bash: hi; Read: contents");
  });

  it("reads only the latest user message, and acknowledges plain text", async () => {
    const model = new ScriptedModel();
    const r = await model.generate({
      messages: [
        user("bash: ls"),
        { role: "assistant", content: "ok" },
        user("Stop hook: check your work"),
      ],
      tools: [],
    });
    expect(r).toMatchObject({ text: "Understood: Stop hook: check your work", toolCalls: [] });
    expect((await model.generate({ messages: [], tools: [] })).text).toBe("Nothing to do.");
  });

  it("reports token usage that validates against core's schema and grows with the input", async () => {
    const model = new ScriptedModel({ name: "scripted-test" });
    expect(model.config).toEqual({ name: "scripted-test", provider: "a3s-demo" });
    const small = await model.generate({ messages: [user("say: hi")], tools: [] });
    const big = await model.generate({
      messages: [user(`say: hi\n${"padding ".repeat(500)}`)],
      tools: [],
    });
    expect(tokenUsageSchema.safeParse(small.usage).success).toBe(true);
    expect(small.usage.total_tokens).toBe(
      small.usage.prompt_tokens + small.usage.completion_tokens,
    );
    expect(big.usage.prompt_tokens).toBeGreaterThan(small.usage.prompt_tokens + 900);
  });
});
