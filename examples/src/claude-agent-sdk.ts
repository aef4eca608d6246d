/**
 * A3S hooks governing a Claude Agent SDK session, offline. `toAgentSdkHooks(engine)` is what
 * you pass to `query({ options: { hooks } })`; the Claude Code CLI that `query()` starts needs
 * an account, so here a scripted session calls the produced callbacks with the inputs the SDK
 * would send, and prints what each callback answers.
 *
 *   pnpm --filter @a3s-lab/examples start claude-agent-sdk
 */

import { type AgentSdkHooks, toAgentSdkHooks } from "@a3s-lab/hooks-claude-agent-sdk";
import { block, HookEngine, modify } from "@a3s-lab/hooks-core";

/** The SDK's own types, reached through the bridge's: the SDK's callback, input and answer. */
type SdkCallback = NonNullable<AgentSdkHooks["PreToolUse"]>[number]["hooks"][number];
type SdkInput = Parameters<SdkCallback>[0];
type SdkAnswer = Awaited<ReturnType<SdkCallback>>;

/** One step of the session: what the SDK asked and what the hooks answered. */
export interface Step {
  event: SdkInput["hook_event_name"];
  summary: string;
  answer: SdkAnswer;
}

/** The engine of this example: the policy a team would keep in one place for every agent. */
export function policyEngine(): HookEngine {
  const engine = new HookEngine();
  engine.register({
    name: "no-recursive-deletes",
    event: "PreToolUse",
    matcher: "Bash",
    handler: (event) =>
      /\brm\s+-\w*r\w*f|\brm\s+-\w*f\w*r/.test(String(event.args.command))
        ? block("recursive force deletes are not allowed")
        : undefined,
  });
  engine.register({
    name: "writes-into-the-sandbox",
    event: "PreToolUse",
    matcher: "Write",
    handler: (event) => {
      const file = String(event.args.file_path ?? "");
      return file.startsWith("/tmp/sandbox/")
        ? undefined
        : modify({ args: { file_path: `/tmp/sandbox/${file.split("/").pop()}` } });
    },
  });
  engine.register({
    name: "redact-keys",
    event: "PostToolUse",
    handler: (event) => {
      const redacted = event.result.output.replace(/sk-[A-Za-z0-9]{8,}/g, "sk-[redacted]");
      return redacted === event.result.output
        ? undefined
        : modify({ result: { output: redacted } }, { additionalContext: "A key was redacted." });
    },
  });
  engine.register({
    name: "tests-before-stopping",
    event: "Stop",
    handler: (event) =>
      event.stopHookActive ? undefined : block("Run the test suite before you finish."),
  });
  return engine;
}

/** Play a short session against the callbacks `toAgentSdkHooks` produced. */
export async function claudeAgentSdkSession(
  print: (line: string) => void = console.log,
): Promise<Step[]> {
  const hooks = toAgentSdkHooks(policyEngine());
  const base = {
    session_id: "example-session",
    transcript_path: "/tmp/example-session.jsonl",
    cwd: process.cwd(),
  };
  const script: [SdkInput, string][] = [
    [{ ...base, hook_event_name: "SessionStart", source: "startup" }, "session starts"],
    [
      { ...base, hook_event_name: "UserPromptSubmit", prompt: "Clean up and save the config" },
      "the user's prompt",
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "rm -rf ./build" },
        tool_use_id: "toolu_01",
      },
      "Bash rm -rf ./build",
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: "/etc/app.conf", content: "debug=false" },
        tool_use_id: "toolu_02",
      },
      "Write /etc/app.conf",
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: ".env" },
        tool_response: "OPENAI_API_KEY=sk-abcdefghijkl",
        tool_use_id: "toolu_03",
      },
      "Read .env returned a key",
    ],
    [
      {
        ...base,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "Done.",
      },
      "Claude wants to stop",
    ],
    [
      {
        ...base,
        hook_event_name: "Stop",
        stop_hook_active: true,
        last_assistant_message: "Tests pass.",
      },
      "Claude wants to stop again",
    ],
    [{ ...base, hook_event_name: "SessionEnd", reason: "other" }, "session ends"],
  ];

  const steps: Step[] = [];
  for (const [input, summary] of script) {
    const callback = hooks[input.hook_event_name]?.[0]?.hooks[0];
    if (!callback) throw new Error(`no callback for ${input.hook_event_name}`);
    const toolUseId = "tool_use_id" in input ? input.tool_use_id : undefined;
    const answer = await callback(input, toolUseId, { signal: AbortSignal.timeout(5000) });
    steps.push({ event: input.hook_event_name, summary, answer });
    print(`${input.hook_event_name.padEnd(17)} ${summary.padEnd(28)} → ${JSON.stringify(answer)}`);
  }
  return steps;
}
