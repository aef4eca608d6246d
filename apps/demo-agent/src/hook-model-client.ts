import type { Message } from "@a3s-lab/hooks-core";
import type { HookModelClient, ModelMessage } from "@a3s-lab/hooks-node";
import type { Model } from "./model.js";
import { parseDirectives, ScriptedModel } from "./scripted-model.js";

function toMessage(m: ModelMessage): Message {
  switch (m.role) {
    case "tool":
      return { role: "tool", content: m.content, toolCallId: m.toolCallId };
    case "assistant":
      return {
        role: "assistant",
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              toolCalls: m.toolCalls.map((c) => ({
                id: c.id,
                name: c.name,
                args: parseArgs(c.arguments),
              })),
            }
          : {}),
      };
    default:
      return { role: m.role, content: m.content };
  }
}

/** The arguments this adapter wrote itself (JSON of an object); anything else reads as `{}`. */
function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The scripted model cannot judge anything, so a hook check it gets is answered without it:
 * the text of a `say:` line in the hook's prompt, or `{"ok": true}`. That keeps the demo
 * offline and deterministic, and lets a settings file script a verdict.
 */
function scriptedVerdicts(model: ScriptedModel): HookModelClient {
  return {
    defaultModel: model.config.name,
    async complete({ messages }) {
      const user = messages.findLast((m) => m.role === "user");
      const say = parseDirectives(user?.content ?? "").find((d) => d.kind === "say");
      return { text: say?.kind === "say" ? say.text : '{"ok": true}' };
    },
  };
}

/**
 * The demo's model as the model client of its `prompt` and `agent` hooks, so those hooks ask
 * the provider the demo runs on (`--model`). The hook's `model` field is not honoured: the
 * demo has one model.
 *
 * @example
 * ```ts
 * applyHookSettings(engine, settings, { projectDir, modelClient: hookModelClient(model) });
 * ```
 */
export function hookModelClient(model: Model): HookModelClient {
  if (model instanceof ScriptedModel) return scriptedVerdicts(model);
  return {
    defaultModel: model.config.name,
    async complete({ messages, tools, signal }) {
      const system = messages
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n\n");
      const response = await model.generate({
        ...(system ? { systemPrompt: system } : {}),
        messages: messages.filter((m) => m.role !== "system").map(toMessage),
        tools: tools ?? [],
        signal,
      });
      const toolCalls = response.toolCalls.map((c) => ({
        id: c.id,
        name: c.name,
        arguments: JSON.stringify(c.args),
      }));
      return { text: response.text, ...(toolCalls.length ? { toolCalls } : {}) };
    },
  };
}
