import { HookError } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { completion, deadPort, startFakeChatServer } from "../../../test/model/fake-chat-server.js";
import {
  MAX_MODEL_RESPONSE_BYTES,
  modelClientFromEnv,
  openAIModelClient,
} from "./openai-model-client.js";

const KEY = "sk-test-secret-4f9c1e";
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function fake(...script: Parameters<typeof startFakeChatServer>[0]) {
  const server = await startFakeChatServer(script);
  servers.push(server);
  return server;
}

async function failure(promise: Promise<unknown>): Promise<HookError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(HookError.is(error)).toBe(true);
  return error as HookError;
}

const ask = (signal: AbortSignal) => ({
  messages: [{ role: "user" as const, content: "hi" }],
  signal,
});

describe("openAIModelClient", () => {
  it("posts the messages, the model and the key, and returns the text", async () => {
    const server = await fake({ content: '{"ok": true}' });
    const client = openAIModelClient({ baseUrl: server.baseUrl, apiKey: KEY, defaultModel: "m1" });
    const reply = await client.complete({ ...ask(new AbortController().signal), model: "m2" });
    expect(reply).toEqual({ text: '{"ok": true}' });
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body.model).toBe("m2");
    expect(request?.body.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(request?.body.tools).toBeUndefined();
  });

  it("offers tools and returns the model's tool calls with their raw arguments", async () => {
    const server = await fake({
      content: null,
      toolCalls: [{ id: "c1", name: "Read", arguments: '{"file_path":"a"}' }],
    });
    const client = openAIModelClient({ baseUrl: server.baseUrl, defaultModel: "m" });
    const reply = await client.complete({
      messages: [{ role: "user", content: "x" }],
      tools: [{ name: "Read", description: "d", parameters: { type: "object" } }],
      signal: new AbortController().signal,
    });
    expect(reply).toEqual({
      text: "",
      toolCalls: [{ id: "c1", name: "Read", arguments: '{"file_path":"a"}' }],
    });
    expect(server.requests[0]?.body.model).toBe("m");
    expect(server.requests[0]?.body.tools?.[0]?.function.name).toBe("Read");
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("a server that is down is UNAVAILABLE, naming the origin only", async () => {
    const port = await deadPort();
    const client = openAIModelClient({
      baseUrl: `http://127.0.0.1:${port}/v1?k=${KEY}`,
      apiKey: KEY,
    });
    const error = await failure(client.complete(ask(new AbortController().signal)));
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toContain(`http://127.0.0.1:${port}`);
    expect(JSON.stringify({ m: error.message, d: error.details })).not.toContain(KEY);
  });

  it("a refused key is UNAUTHENTICATED, and the provider's message (which may quote it) is not repeated", async () => {
    const server = await fake((_req, res) =>
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } })),
    );
    const client = openAIModelClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const error = await failure(client.complete(ask(new AbortController().signal)));
    expect(error.code).toBe("UNAUTHENTICATED");
    expect(error.message).toContain("HTTP 401");
    expect(JSON.stringify({ m: error.message, d: error.details })).not.toContain(KEY);
  });

  it("another error status keeps the provider's message with the key cut out", async () => {
    const server = await fake((_req, res) =>
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `bad model for key ${KEY}` } })),
    );
    const client = openAIModelClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const error = await failure(client.complete(ask(new AbortController().signal)));
    expect(error.code).toBe("HANDLER_FAILED");
    expect(error.message).toContain("HTTP 400: bad model for key [redacted]");
    expect(error.message).not.toContain(KEY);
  });

  it("a 5xx is UNAVAILABLE", async () => {
    const server = await fake((_req, res) => res.writeHead(503).end("busy"));
    const client = openAIModelClient({ baseUrl: server.baseUrl });
    expect((await failure(client.complete(ask(new AbortController().signal)))).code).toBe(
      "UNAVAILABLE",
    );
  });

  it("a body past the cap is not read: INVALID_OUTPUT", async () => {
    const server = await fake((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(completion("x".repeat(MAX_MODEL_RESPONSE_BYTES + 10)));
    });
    const client = openAIModelClient({ baseUrl: server.baseUrl });
    const error = await failure(client.complete(ask(new AbortController().signal)));
    expect(error.code).toBe("INVALID_OUTPUT");
    expect(error.message).toContain(`${MAX_MODEL_RESPONSE_BYTES} bytes`);
  });

  it.each([
    ["not JSON", "<html>"],
    ["no choices", JSON.stringify({ choices: [] })],
    ["content not a string", JSON.stringify({ choices: [{ message: { content: 5 } }] })],
    [
      "too many tool calls",
      completion(
        null,
        Array.from({ length: 17 }, (_, i) => ({ id: `c${i}`, name: "Read", arguments: "{}" })),
      ),
    ],
  ])("a body that is not a chat completion (%s) is INVALID_OUTPUT", async (_what, body) => {
    const server = await fake((_req, res) => res.writeHead(200).end(body));
    const client = openAIModelClient({ baseUrl: server.baseUrl });
    expect((await failure(client.complete(ask(new AbortController().signal)))).code).toBe(
      "INVALID_OUTPUT",
    );
  });

  it("aborting the signal aborts the HTTP request, with the signal's reason", async () => {
    const server = await fake(() => {
      // never answers
    });
    const client = openAIModelClient({ baseUrl: server.baseUrl });
    const controller = new AbortController();
    const closed = server.nextClose();
    const call = failure(client.complete(ask(controller.signal)));
    await until(() => server.requests.length === 1);
    controller.abort(new HookError("TIMEOUT", "no answer within 30 s"));
    const error = await call;
    expect(error.code).toBe("TIMEOUT");
    await closed;
    expect(server.state.closed).toBe(1);
  });

  it("does not follow redirects (the key would go with them)", async () => {
    const elsewhere = await fake({ content: '{"ok": true}' });
    const server = await fake((_req, res) =>
      res.writeHead(307, { location: `${elsewhere.baseUrl}/chat/completions` }).end(),
    );
    const client = openAIModelClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const error = await failure(client.complete(ask(new AbortController().signal)));
    expect(error.message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setImmediate(resolve));
}

describe("modelClientFromEnv", () => {
  it("is undefined without A3S_HOOKS_MODEL, even with an OpenAI key", () => {
    expect(modelClientFromEnv({ OPENAI_API_KEY: KEY })).toBeUndefined();
  });

  it("takes the model name from A3S_HOOKS_MODEL and the endpoint from the variables", async () => {
    const server = await fake({ content: "x" });
    const client = modelClientFromEnv({
      A3S_HOOKS_MODEL: "judge",
      A3S_HOOKS_MODEL_BASE_URL: server.baseUrl,
      OPENAI_BASE_URL: "https://example.invalid/v1",
      A3S_HOOKS_MODEL_API_KEY: KEY,
      OPENAI_API_KEY: "other",
    });
    expect(client?.defaultModel).toBe("judge");
    await client?.complete(ask(new AbortController().signal));
    expect(server.requests[0]?.body.model).toBe("judge");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("falls back to OPENAI_BASE_URL and OPENAI_API_KEY", async () => {
    const server = await fake({ content: "x" });
    const client = modelClientFromEnv({
      A3S_HOOKS_MODEL: "judge",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: KEY,
    });
    await client?.complete(ask(new AbortController().signal));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ["http://192.168.1.10:8080/v1", "https://, or http:// to this machine"],
    ["ftp://127.0.0.1/v1", "https://, or http:// to this machine"],
    [`https://user:${KEY}@example.com/v1`, "credentials in the URL are refused"],
    ["not a url", "expected an http(s) URL"],
  ])("refuses the base URL %s, naming the variable and never the key", (url, message) => {
    let error: unknown;
    try {
      modelClientFromEnv({
        A3S_HOOKS_MODEL: "judge",
        A3S_HOOKS_MODEL_BASE_URL: url,
        A3S_HOOKS_MODEL_API_KEY: KEY,
      });
    } catch (e) {
      error = e;
    }
    expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
    expect((error as HookError).message).toContain("A3S_HOOKS_MODEL_BASE_URL");
    expect((error as HookError).message).toContain(message);
    expect((error as HookError).message).not.toContain(KEY);
  });

  it("accepts http:// to localhost, 127.x and [::1]", () => {
    for (const url of ["http://localhost:1/v1", "http://127.0.0.2:1/v1", "http://[::1]:1/v1"]) {
      expect(modelClientFromEnv({ A3S_HOOKS_MODEL: "m", OPENAI_BASE_URL: url })).toBeDefined();
    }
  });
});
