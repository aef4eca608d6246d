import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake server received: its headers and parsed JSON body. */
export interface ChatRequest {
  headers: IncomingMessage["headers"];
  body: {
    model?: string;
    messages: {
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: unknown[];
    }[];
    tools?: { type: string; function: { name: string } }[];
  };
}

/** What the fake answers a request with: a reply, or raw control of the response. */
export type ChatBehaviour =
  | { content?: string | null; toolCalls?: { id: string; name: string; arguments: string }[] }
  | ((request: ChatRequest, res: ServerResponse) => void);

/** A completion body with one message. */
export function completion(
  content: string | null,
  toolCalls?: { id: string; name: string; arguments: string }[],
): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: toolCalls ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content,
          ...(toolCalls
            ? {
                tool_calls: toolCalls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
  });
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script: each
 * request takes the next behaviour (the last one repeats). `requests` records what came in;
 * `closed` counts requests whose connection closed before an answer (an aborted call).
 */
export async function startFakeChatServer(script: ChatBehaviour[]) {
  const requests: ChatRequest[] = [];
  const state = { closed: 0 };
  const closedWaiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url !== "/v1/chat/completions" || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      const request: ChatRequest = {
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      };
      requests.push(request);
      res.on("close", () => {
        if (!res.writableFinished) {
          state.closed++;
          for (const w of closedWaiters.splice(0)) w();
        }
      });
      const behaviour = script[Math.min(requests.length - 1, script.length - 1)]!;
      if (typeof behaviour === "function") {
        behaviour(request, res);
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(completion(behaviour.content ?? null, behaviour.toolCalls));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    state,
    /** Resolves once a request's connection closed before it was answered. */
    nextClose: () => new Promise<void>((resolve) => closedWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 nothing listens on (bound, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
