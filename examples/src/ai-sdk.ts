/**
 * An AI SDK agent governed by A3S hooks, offline: the SDK's own mock model plays a scripted
 * model, so the run needs no key and no network. Swap in your provider's model for real use.
 * The tools are wrapped with `withHooks`, the model with `hooksMiddleware`, and the turns run
 * in a `HookSession`, so tool calls, model calls and Stop all go through the hooks.
 *
 *   pnpm --filter @a3s-lab/examples start ai-sdk
 */

import { HookSession, hooksMiddleware, isBlockedOutput, withHooks } from "@a3s-lab/hooks-ai-sdk";
import { block, HookEngine, modify } from "@a3s-lab/hooks-core";
import { generateText, stepCountIs, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

type Answer = { text: string } | { tool: string; input: Record<string, unknown> };

/** The mock model, answering each call with the next line of its script. */
function scriptedModel(script: Answer[]) {
  const usage = {
    inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 8, text: 8, reasoning: undefined },
  };
  let at = 0;
  return new MockLanguageModelV3({
    modelId: "scripted-model",
    doGenerate: async () => {
      const answer = script[at++] ?? { text: "(the script has ended)" };
      if ("text" in answer) {
        return {
          content: [{ type: "text", text: answer.text }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `call-${at}`,
            toolName: answer.tool,
            input: JSON.stringify(answer.input),
          },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** The team's policy, in one engine: the same hooks would govern any other A3S agent. */
export function policyEngine(log: (line: string) => void): HookEngine {
  const engine = new HookEngine();
  engine.register({
    name: "no-recursive-deletes",
    event: "PreToolUse",
    matcher: { tool: "shell", commandPattern: "rm\\s+-[a-z]*r" },
    handler: () => block("recursive deletes need a human"),
  });
  engine.register({
    name: "a-week-at-most",
    event: "PreToolUse",
    matcher: "weather",
    handler: (event) => (Number(event.args.days) > 7 ? modify({ args: { days: 7 } }) : undefined),
  });
  engine.register({
    name: "redact-keys",
    event: "PostToolUse",
    handler: (event) => {
      const output = event.result.output.replace(/(API_KEY=)\S+/g, "$1[redacted]");
      return output === event.result.output ? undefined : modify({ result: { output } });
    },
  });
  engine.register({
    name: "house-style",
    event: "GenerateStart",
    handler: (event) =>
      modify({ systemPrompt: `${event.systemPrompt ?? ""} Keep answers short.`.trim() }),
  });
  engine.register({
    name: "token-meter",
    event: "GenerateEnd",
    handler: (event) => log(`  [GenerateEnd] ${event.response.usage.total_tokens} tokens`),
  });
  engine.register({
    name: "summary-first",
    event: "Stop",
    handler: (event) =>
      event.stopHookActive ? undefined : block("before you stop, summarise what you did"),
  });
  return engine;
}

/** Run the scripted session and print each step; resolves with the printed lines. */
export async function offlineAgent(log: (line: string) => void = console.log): Promise<string[]> {
  const lines: string[] = [];
  const print = (line: string) => {
    lines.push(line);
    log(line);
  };
  const engine = policyEngine(print);
  const sessionId = "offline-ai-sdk";
  const tools = withHooks(
    {
      shell: tool({
        description: "Run a shell command",
        inputSchema: z.object({ command: z.string() }),
        execute: async ({ command }) => `(pretend) ran ${command}`,
      }),
      weather: tool({
        description: "Weather forecast",
        inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(16) }),
        execute: async ({ city, days }) => `${days} days of sun in ${city}`,
      }),
      readEnv: tool({
        description: "Read the .env file",
        inputSchema: z.object({}),
        execute: async () => "API_KEY=sk-live-123456 REGION=eu",
      }),
    },
    engine,
    { sessionId },
  );
  const model = wrapLanguageModel({
    model: scriptedModel([
      { tool: "shell", input: { command: "rm -rf node_modules" } },
      { tool: "weather", input: { city: "Paris", days: 10 } },
      { tool: "readEnv", input: {} },
      { text: "I skipped the delete, found sun in Paris and read the settings." },
      { text: "Summary: no files deleted; 7 days of sun in Paris; the API key stays secret." },
    ]),
    middleware: hooksMiddleware(engine, { sessionId }),
  });

  const session = new HookSession(engine, { sessionId });
  await session.start();
  const { turns } = await session.run("Tidy up, then plan a week in Paris", async (prompt) => {
    print(`> ${prompt}`);
    const result = await generateText({
      model,
      tools,
      system: "You are a helpful agent.",
      prompt,
      stopWhen: stepCountIs(6),
    });
    for (const step of result.steps) {
      for (const r of step.toolResults) {
        const output = isBlockedOutput(r.output) ? `blocked: ${r.output.reason}` : String(r.output);
        print(`  ${r.toolName}(${JSON.stringify(r.input)}) → ${output}`);
      }
    }
    print(`  ${result.text}`);
    return result;
  });
  await session.end();
  print(`${turns.length} turns`);
  return lines;
}
