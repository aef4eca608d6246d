import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { type Firing, onFiring } from "./firings.js";
import { OpenAiModel } from "./openai-model.js";

interface Exchange {
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}

/** A tiny chat-completions server on 127.0.0.1 that answers from a script. */
async function fakeProvider(
  answer: (body: Record<string, unknown>, n: number) => { status?: number; json: unknown },
) {
  const seen: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ body, headers: req.headers });
      const { status = 200, json } = answer(body, seen.length);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((r) => server.close(r)),
  };
}

function completion(
  message: Record<string, unknown>,
  usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "local-model",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", ...message } }],
    usage,
  };
}

let workdir: string;
let closeProvider: (() => Promise<unknown>) | undefined;
beforeEach(async () => {
  workdir = await realpath(await mkdtemp(path.join(os.tmpdir(), "openai-")));
});
afterEach(async () => {
  await closeProvider?.();
  closeProvider = undefined;
  await rm(workdir, { recursive: true, force: true });
});

describe("OpenAiModel", () => {
  it("drives the agent loop with tool calls over chat completions", async () => {
    const provider = await fakeProvider((_, n) =>
      n === 1
        ? {
            json: completion({
              content: null,
              tool_calls: [
                {
                  id: "call_a",
                  type: "function",
                  function: { name: "Read", arguments: '{"file_path":"a.md"}' },
                },
              ],
            }),
          }
        : { json: completion({ content: "The file says hello." }) },
    );
    closeProvider = provider.close;
    await writeFile(path.join(workdir, "a.md"), "hello\n");
    const agent = new Agent({
      model: new OpenAiModel({
        model: "local-model",
        baseURL: provider.baseURL,
        apiKey: "sk-test-key",
      }),
    });
    const fired: Firing[] = [];
    onFiring(agent.engine, (f) => fired.push(f));
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "What does a.md say?");

    expect(reply.text).toBe("The file says hello.");
    expect(reply.usage).toEqual({ prompt_tokens: 22, completion_tokens: 14, total_tokens: 36 });
    expect(provider.seen).toHaveLength(2);
    const [first, second] = provider.seen;
    expect(first?.headers.authorization).toBe("Bearer sk-test-key");
    expect(first?.body.model).toBe("local-model");
    const tools = first?.body.tools as {
      function: { name: string; parameters: { properties: object } };
    }[];
    expect(tools.map((t) => t.function.name)).toContain("Read");
    expect(
      tools.find((t) => t.function.name === "Read")?.function.parameters.properties,
    ).toHaveProperty("file_path");
    expect((first!.body.messages as { role: string }[]).map((m) => m.role)).toEqual([
      "system",
      "user",
    ]);
    expect(second?.body.messages).toEqual([
      expect.objectContaining({ role: "system" }),
      { role: "user", content: "What does a.md say?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_a",
            type: "function",
            function: { name: "Read", arguments: '{"file_path":"a.md"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "hello\n" },
    ]);
    const ends = fired.filter((f) => f.event.eventType === "GenerateEnd").map((f) => f.event);
    expect(ends[0]).toMatchObject({
      model: { name: "local-model", provider: "openai-compatible" },
      response: { toolCalls: [{ id: "call_a", name: "Read", args: { file_path: "a.md" } }] },
    });
  });

  it("turns malformed answers into MODEL_ERROR naming the field", async () => {
    const answers = [
      completion({
        content: null,
        tool_calls: [
          { id: "x", type: "function", function: { name: "Read", arguments: "{not json" } },
        ],
      }),
      completion({
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "Read", arguments: "[1,2]" } }],
      }),
      { id: "c", object: "chat.completion", choices: [] },
    ];
    const provider = await fakeProvider((_, n) => ({ json: answers[n - 1] }));
    closeProvider = provider.close;
    const model = new OpenAiModel({ model: "m", baseURL: provider.baseURL, apiKey: "k" });
    const request = { messages: [{ role: "user" as const, content: "hi" }], tools: [] };
    await expect(model.generate(request)).rejects.toMatchObject({
      code: "MODEL_ERROR",
      path: ["tool_calls", 0, "function", "arguments"],
      message: expect.stringContaining("not valid JSON"),
    });
    await expect(model.generate(request)).rejects.toMatchObject({
      message: expect.stringContaining("must be a JSON object"),
    });
    await expect(model.generate(request)).rejects.toMatchObject({
      path: ["choices", 0, "message"],
    });
  });

  it("reports HTTP failures without leaking the key, and a notice fires", async () => {
    const provider = await fakeProvider(() => ({
      status: 500,
      json: { error: { message: "boom" } },
    }));
    closeProvider = provider.close;
    const agent = new Agent({
      model: new OpenAiModel({
        model: "m",
        baseURL: provider.baseURL,
        apiKey: "sk-very-secret",
        maxRetries: 0,
      }),
    });
    const notices: unknown[] = [];
    agent.engine.register({ event: "Notification", handler: (e) => void notices.push(e) });
    const session = await agent.createSession({ workdir });
    const error = await agent.respond(session, "hi").catch((e: Error) => e);
    expect(error).toMatchObject({
      code: "MODEL_ERROR",
      message: expect.stringContaining("HTTP 500"),
    });
    expect((error as Error).message).not.toContain("sk-very-secret");
    expect(notices).toEqual([
      expect.objectContaining({ notificationType: "error", level: "error" }),
    ]);
    expect(session.busy).toBe(false);
  });

  it("refuses a missing model name", () => {
    expect(() => new OpenAiModel({ model: " " })).toThrow(/model/);
  });
});
