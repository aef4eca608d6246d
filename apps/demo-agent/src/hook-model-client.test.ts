import { describe, expect, it } from "vitest";
import { hookModelClient } from "./hook-model-client.js";
import type { Model, ModelRequest } from "./model.js";
import { ScriptedModel } from "./scripted-model.js";

const signal = new AbortController().signal;

describe("hookModelClient", () => {
  it("under the scripted model, a hook check passes unless its prompt scripts a verdict", async () => {
    const client = hookModelClient(new ScriptedModel());
    const ask = (content: string) =>
      client.complete({
        messages: [
          { role: "system", content: "answer with JSON" },
          { role: "user", content },
        ],
        signal,
      });
    expect(await ask('Is this safe? {"tool_name":"Bash"}')).toEqual({ text: '{"ok": true}' });
    expect(await ask('say: {"ok": false, "reason": "demo says no"}\n{"tool_name":"Bash"}')).toEqual(
      { text: '{"ok": false, "reason": "demo says no"}' },
    );
    expect(client.defaultModel).toBe("scripted");
  });

  it("passes messages, tools and the signal to a real model, and its tool calls back as JSON text", async () => {
    const seen: ModelRequest[] = [];
    const model: Model = {
      config: { name: "gpt-test", provider: "openai-compatible" },
      async generate(request) {
        seen.push(request);
        return {
          text: "",
          toolCalls: [{ id: "t1", name: "Read", args: { file_path: "a.ts" } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
      },
    };
    const client = hookModelClient(model);
    const reply = await client.complete({
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "check" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "t0", name: "Glob", arguments: '{"pattern":"*"}' }],
        },
        { role: "tool", toolCallId: "t0", content: "a.ts" },
      ],
      tools: [{ name: "Read", description: "read", parameters: { type: "object" } }],
      signal,
    });
    expect(reply).toEqual({
      text: "",
      toolCalls: [{ id: "t1", name: "Read", arguments: '{"file_path":"a.ts"}' }],
    });
    expect(seen[0]?.systemPrompt).toBe("rules");
    expect(seen[0]?.signal).toBe(signal);
    expect(seen[0]?.tools.map((t) => t.name)).toEqual(["Read"]);
    expect(seen[0]?.messages).toEqual([
      { role: "user", content: "check" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "t0", name: "Glob", args: { pattern: "*" } }],
      },
      { role: "tool", content: "a.ts", toolCallId: "t0" },
    ]);
  });
});
