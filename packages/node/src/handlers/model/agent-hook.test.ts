import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeChatServer } from "../../../test/model/fake-chat-server.js";
import { toHookInput } from "../hook-input.js";
import { createAgentHandler, MAX_AGENT_TURNS } from "./agent-hook.js";
import type { HookModelClient, ModelReply, ModelRequest } from "./model-client.js";
import { openAIModelClient } from "./openai-model-client.js";
import type { AgentRunRequest } from "./prompt-hook.js";

let project: string;
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "a3s-agent-hook-"));
  await mkdir(join(project, "src"));
  await writeFile(join(project, "src", "app.ts"), "export const x = 1; // FIXME\n");
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

const event = createEvent("Stop", { sessionId: "s", stopHookActive: false });
const run = (signal = new AbortController().signal) => ({
  event,
  input: toHookInput(event, { cwd: project }),
  signal,
});

/** A client that replies from a list (the last one repeats) and keeps a copy of each request. */
function scripted(...replies: ModelReply[]): HookModelClient & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    asked,
    defaultModel: "judge",
    async complete(request) {
      asked.push({ ...request, messages: [...request.messages] });
      return replies[Math.min(asked.length - 1, replies.length - 1)]!;
    },
  };
}

describe("createAgentHandler", () => {
  it("a huge tool input is still judged, by the built-in verifier and by a host's agent", async () => {
    const write = createEvent("PreToolUse", {
      sessionId: "s",
      tool: "Write",
      args: { file_path: "a.sh", content: "x".repeat(600_000) },
    });
    const ctx = {
      event: write,
      input: toHookInput(write, { cwd: project }),
      signal: new AbortController().signal,
    };
    const client = scripted({ text: '{"ok": false}' });
    const builtIn = createAgentHandler(
      { type: "agent", prompt: "ok? $ARGUMENTS" },
      { projectDir: project, modelClient: client },
    );
    expect((await builtIn(ctx))?.action).toBe("block");
    expect(client.asked).toHaveLength(1);
    const prompts: string[] = [];
    const hosted = createAgentHandler(
      { type: "agent", prompt: "ok? $ARGUMENTS" },
      {
        projectDir: project,
        agentRunner: async (r) => {
          prompts.push(r.prompt);
          return '{"ok": false}';
        },
      },
    );
    expect((await hosted(ctx))?.action).toBe("block");
    expect(prompts[0]).toContain("…[cut ");
  });

  it("an input that cannot fit blocks a blockable event without running the verifier", async () => {
    const write = createEvent("PreToolUse", {
      sessionId: "s",
      tool: "Write",
      args: { file_path: "a", content: "c", many: Array.from({ length: 600_000 }, () => 1) },
    });
    const ctx = {
      event: write,
      input: toHookInput(write, { cwd: project }),
      signal: new AbortController().signal,
    };
    const client = scripted({ text: '{"ok": true}' });
    const builtIn = createAgentHandler(
      { type: "agent", prompt: "p" },
      { projectDir: project, modelClient: client },
    );
    expect((await builtIn(ctx))?.action).toBe("block");
    expect(client.asked).toHaveLength(0);
  });

  it("without a model client or an agent runner, fails at load time naming the hook", () => {
    let error: unknown;
    try {
      createAgentHandler({ type: "agent", prompt: "p" }, { projectDir: project, name: "verify" });
    } catch (e) {
      error = e;
    }
    expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
    expect((error as Error).message).toContain("agent hook verify: no model is configured");
  });

  it("lets the model read the project with tools, then reads its answer", async () => {
    const client = scripted(
      { text: "", toolCalls: [{ id: "1", name: "Grep", arguments: '{"pattern":"FIXME"}' }] },
      {
        text: "",
        toolCalls: [{ id: "2", name: "Read", arguments: '{"file_path":"src/app.ts"}' }],
      },
      { text: '{"ok": false, "reason": "src/app.ts still has a FIXME"}' },
    );
    const handler = createAgentHandler(
      { type: "agent", prompt: "Are all FIXMEs gone? $ARGUMENTS", model: "m" },
      { modelClient: client, projectDir: project },
    );
    expect(await handler(run())).toEqual({
      action: "block",
      reason: "src/app.ts still has a FIXME",
    });
    expect(client.asked).toHaveLength(3);
    expect(client.asked[0]?.tools?.map((t) => t.name)).toEqual(["Read", "Grep", "Glob"]);
    expect(client.asked[0]?.model).toBe("m");
    expect(client.asked[1]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "1",
      content: "src/app.ts:1: export const x = 1; // FIXME",
    });
    expect(client.asked[2]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "2",
      content: "1\texport const x = 1; // FIXME\n2\t",
    });
  });

  it(`gives up after ${MAX_AGENT_TURNS} turns (HANDLER_FAILED), never an allow`, async () => {
    const client = scripted({
      text: "",
      toolCalls: [{ id: "1", name: "Glob", arguments: '{"pattern":"*.ts"}' }],
    });
    const handler = createAgentHandler(
      { type: "agent", prompt: "p" },
      { modelClient: client, projectDir: project },
    );
    await expect(handler(run())).rejects.toMatchObject({
      code: "HANDLER_FAILED",
      message: expect.stringContaining(`${MAX_AGENT_TURNS} turns`),
    });
    expect(client.asked).toHaveLength(MAX_AGENT_TURNS);
  });

  it("a host client's malformed tool call fails the hook (INVALID_OUTPUT) before any tool runs", async () => {
    const client: HookModelClient = {
      defaultModel: "m",
      complete: async () =>
        ({
          text: "",
          toolCalls: [{ id: "1", name: "Read", arguments: { file_path: "x" } }],
        }) as never,
    };
    const handler = createAgentHandler(
      { type: "agent", prompt: "p" },
      { modelClient: client, projectDir: project },
    );
    await expect(handler(run())).rejects.toMatchObject({ code: "INVALID_OUTPUT" });
  });

  it("stops between turns once the hook's signal fired", async () => {
    const controller = new AbortController();
    const client: HookModelClient = {
      defaultModel: "m",
      async complete() {
        controller.abort(new HookError("TIMEOUT", "no answer within 60 s"));
        return { text: "", toolCalls: [{ id: "1", name: "Glob", arguments: '{"pattern":"*"}' }] };
      },
    };
    const handler = createAgentHandler(
      { type: "agent", prompt: "p" },
      { modelClient: client, projectDir: project },
    );
    await expect(handler(run(controller.signal))).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("a host's agent runner gets the rendered prompt and the project, and its answer is read strictly", async () => {
    const seen: AgentRunRequest[] = [];
    const handler = createAgentHandler(
      { type: "agent", prompt: "Check: $ARGUMENTS", model: "big" },
      {
        projectDir: project,
        agentRunner: async (request) => {
          seen.push(request);
          return '{"ok": true}';
        },
      },
    );
    expect(await handler(run())).toEqual({ action: "continue" });
    expect(seen[0]?.projectDir).toBe(project);
    expect(seen[0]?.model).toBe("big");
    expect(JSON.parse(seen[0]!.prompt.slice("Check: ".length))).toMatchObject({
      hook_event_name: "Stop",
    });
    const garbled = createAgentHandler(
      { type: "agent", prompt: "p" },
      { projectDir: project, agentRunner: async () => "looks good to me" },
    );
    // Stop can block: an answer with no verdict is a block (the agent goes on), never an allow.
    expect(await garbled(run())).toMatchObject({
      action: "block",
      reason: expect.stringContaining("treated as a block"),
    });
    const proseNo = createAgentHandler(
      { type: "agent", prompt: "p" },
      {
        projectDir: project,
        agentRunner: async () => 'Checked.\n{"ok": false, "reason": "tests fail"}\nThat is all.',
      },
    );
    expect(await proseNo(run())).toEqual({ action: "block", reason: "tests fail" });
  });

  it("runs through the default client against a chat-completions server", async () => {
    const server = await startFakeChatServer([
      { toolCalls: [{ id: "c1", name: "Glob", arguments: '{"pattern":"**/*.ts"}' }] },
      { content: '{"ok": true}' },
    ]);
    try {
      const handler = createAgentHandler(
        { type: "agent", prompt: "p" },
        {
          modelClient: openAIModelClient({ baseUrl: server.baseUrl, defaultModel: "m" }),
          projectDir: project,
        },
      );
      expect(await handler(run())).toEqual({ action: "continue" });
      const second = server.requests[1]?.body.messages ?? [];
      expect(second.at(-2)).toMatchObject({
        role: "assistant",
        tool_calls: [{ id: "c1", type: "function", function: { name: "Glob" } }],
      });
      expect(second.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "src/app.ts" });
    } finally {
      await server.close();
    }
  });
});
