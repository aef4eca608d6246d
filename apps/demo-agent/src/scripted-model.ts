import type { Message, ModelConfig, ToolArgs, ToolCall } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { Model, ModelRequest, ModelResponse } from "./model.js";
import { estimateMessageTokens, estimateTokens } from "./token-estimate.js";

/** One line of a prompt, understood. */
export type Directive =
  | { kind: "tool"; tool: string; args: ToolArgs }
  | { kind: "say"; text: string }
  /** The model call fails, as a provider's would (`rate_limit`, `server_error`, …). */
  | { kind: "fail"; errorType: string };

/** `\n` and `\t` in directive text become real newlines and tabs; `\\` a backslash. */
function decodeEscapes(text: string): string {
  return text.replace(/\\(n|t|\\)/g, (_, c: string) =>
    c === "n" ? "\n" : c === "t" ? "\t" : "\\",
  );
}

const RULES: readonly [RegExp, (m: RegExpExecArray) => Directive][] = [
  [/^bash:\s*(.+)$/i, (m) => tool("Bash", { command: m[1]! })],
  [/^read\s+(\S+)$/i, (m) => tool("Read", { file_path: m[1]! })],
  [
    /^write\s+([^:\s]+):\s?(.*)$/i,
    (m) => tool("Write", { file_path: m[1]!, content: decodeEscapes(m[2]!) }),
  ],
  [
    /^edit\s+([^:\s]+):\s?(.+?)\s+=>\s?(.*)$/i,
    (m) =>
      tool("Edit", {
        file_path: m[1]!,
        old_string: decodeEscapes(m[2]!),
        new_string: decodeEscapes(m[3]!),
      }),
  ],
  [/^glob\s+(\S+)$/i, (m) => tool("Glob", { pattern: m[1]! })],
  [
    /^grep\s+(.+?)(?:\s+in\s+(\S+))?$/i,
    (m) => tool("Grep", m[2] === undefined ? { pattern: m[1]! } : { pattern: m[1]!, path: m[2] }),
  ],
  [
    /^task:\s*(.+)$/i,
    (m) => {
      const prompt = decodeEscapes(m[1]!);
      const first = prompt.split("\n")[0]!;
      return tool("Task", {
        description: first.length > 48 ? `${first.slice(0, 47)}…` : first,
        prompt,
      });
    },
  ],
  [/^skill:?\s+([\w-]+)$/i, (m) => tool("Skill", { name: m[1]! })],
  [/^say:\s*(.*)$/i, (m) => ({ kind: "say", text: decodeEscapes(m[1]!) })],
  [/^fail:\s*([\w-]+)$/i, (m) => ({ kind: "fail", errorType: m[1]! })],
];

function tool(name: string, args: ToolArgs): Directive {
  return { kind: "tool", tool: name, args };
}

/**
 * The directives in a prompt, one per line; lines that are not directives are ignored.
 *
 * @example
 * ```ts
 * parseDirectives("bash: ls\nwrite notes.md: hello");
 * // [{ kind: "tool", tool: "Bash", args: { command: "ls" } },
 * //  { kind: "tool", tool: "Write", args: { file_path: "notes.md", content: "hello" } }]
 * ```
 */
export function parseDirectives(prompt: string): Directive[] {
  const out: Directive[] = [];
  for (const raw of prompt.split("\n")) {
    const line = raw.trim();
    for (const [pattern, build] of RULES) {
      const m = pattern.exec(line);
      if (m) {
        out.push(build(m));
        break;
      }
    }
  }
  return out;
}

function firstLine(text: string, max = 72): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The final answer: what each tool call of this turn came to. */
function summarize(turn: readonly Message[]): string {
  const results = new Map<string, string>();
  for (const m of turn) if (m.role === "tool" && m.toolCallId) results.set(m.toolCallId, m.content);
  const parts: string[] = [];
  for (const m of turn) {
    for (const call of m.toolCalls ?? []) {
      parts.push(`${call.name}: ${firstLine(results.get(call.id) ?? "(no result)", 60)}`);
    }
  }
  return parts.length === 0 ? "Done." : `Done. ${parts.join("; ")}`;
}

export interface ScriptedModelOptions {
  /** The name GenerateStart and GenerateEnd report. Default `scripted`. */
  name?: string;
}

/**
 * A deterministic, offline model. It reads the latest user message as directives, one per
 * line (`bash: ls`, `read notes.md`, `write notes.md: hello`, `edit notes.md: hello => bye`,
 * `glob **\/*.md`, `grep bye in notes.md`, `task: <subagent prompt>`, `skill: <name>`,
 * `say: <text>`, `fail: rate_limit` for a failed model call), answers one tool call per step in order, then a final text summing up the
 * results. A message without directives gets a short acknowledgement. Usage is estimated
 * from the characters in and out.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel();
 * const r = await model.generate({ messages: [{ role: "user", content: "bash: ls" }], tools: [] });
 * r.toolCalls; // [{ id: "call_1", name: "Bash", args: { command: "ls" } }]
 * ```
 */
export class ScriptedModel implements Model {
  readonly config: ModelConfig;
  #calls = 0;

  constructor(options: ScriptedModelOptions = {}) {
    this.config = { name: options.name ?? "scripted", provider: "a3s-demo" };
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const { messages } = request;
    let userAt = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]!.role === "user") {
        userAt = i;
        break;
      }
    }
    const turn = userAt >= 0 ? messages.slice(userAt + 1) : [];
    const prompt = userAt >= 0 ? messages[userAt]!.content : "";
    const directives = parseDirectives(prompt);
    const step = turn.filter((m) => m.role === "assistant").length;

    let text = "";
    const toolCalls: ToolCall[] = [];
    const next = directives[step];
    if (next?.kind === "fail") {
      throw new AgentError("MODEL_ERROR", `the model call failed: ${next.errorType}`, {
        cause: { errorType: next.errorType },
      });
    }
    if (next?.kind === "tool") {
      toolCalls.push({ id: `call_${++this.#calls}`, name: next.tool, args: next.args });
    } else if (next?.kind === "say") {
      text = next.text;
    } else if (directives.length === 0) {
      text = prompt.trim() === "" ? "Nothing to do." : `Understood: ${firstLine(prompt)}`;
    } else {
      text = summarize(turn);
    }

    const prompt_tokens = estimateMessageTokens(messages, request.systemPrompt);
    const completion_tokens =
      estimateTokens(text) + toolCalls.reduce((n, c) => n + estimateTokens(JSON.stringify(c)), 0);
    return {
      text,
      toolCalls,
      usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
    };
  }
}
