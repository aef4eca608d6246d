/**
 * A model provider (or whatever answers at its address) that misbehaves must not hold a
 * `prompt` hook past its timeout, grow the agent's memory, or turn into an allow: a body that
 * never ends is cut at the cap and the connection closed; a body that drips a byte at a time
 * is cut at the hook's timeout; answers built to confuse the reader (deep nesting, a second
 * object, an allow hidden in other fields) fail the hook, and a fail-closed hook blocks.
 * Everything runs on 127.0.0.1 and stops by itself.
 */
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { toHookInput } from "../../src/handlers/hook-input.js";
import {
  MAX_MODEL_RESPONSE_BYTES,
  openAIModelClient,
} from "../../src/handlers/model/openai-model-client.js";
import { createPromptHandler } from "../../src/handlers/model/prompt-hook.js";
import { completion, startFakeChatServer } from "../model/fake-chat-server.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** An engine with one prompt hook on PreToolUse (fail-closed unless told), asking the server's model. */
async function guarded(
  script: Parameters<typeof startFakeChatServer>[0],
  timeoutMs = 1000,
  failBehavior: "block" | "continue" = "block",
) {
  const server = await startFakeChatServer(script);
  servers.push(server);
  const handler = createPromptHandler(
    { type: "prompt", prompt: "Safe? $ARGUMENTS" },
    { modelClient: openAIModelClient({ baseUrl: server.baseUrl, defaultModel: "m" }) },
  );
  const engine = new HookEngine();
  engine.register({
    event: "PreToolUse",
    failBehavior,
    timeoutMs,
    handler: (event, ctx) =>
      handler({ event, input: toHookInput(event, { cwd: "/" }), signal: ctx.signal }),
  });
  const fire = () =>
    engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
    );
  return { server, fire };
}

describe("a hostile model provider", () => {
  it("an endless body is cut at the cap and its connection closed: the hook fails closed", async () => {
    const { server, fire } = await guarded(
      [
        (_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          // Bounded: stops by itself at 64 MiB if nobody hangs up.
          const pump = () => {
            while (sent < 64 * 1024 * 1024 && !res.destroyed) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once("drain", pump);
            }
            res.end();
          };
          pump();
        },
      ],
      20_000,
    );
    const closed = server.nextClose();
    const result = await fire();
    expect(result.action).toBe("block");
    expect(result.outcomes[0]?.error?.code).toBe("INVALID_OUTPUT");
    expect(result.outcomes[0]?.error?.message).toContain(String(MAX_MODEL_RESPONSE_BYTES));
    await closed;
  });

  it("a body that drips one byte at a time is cut at the hook's timeout", async () => {
    const { server, fire } = await guarded(
      [
        (_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          let left = 200;
          const timer = setInterval(() => {
            if (res.destroyed || left-- <= 0) {
              clearInterval(timer);
              if (!res.destroyed) res.end();
              return;
            }
            res.write(" ");
          }, 20);
        },
      ],
      500,
    );
    const closed = server.nextClose();
    const result = await fire();
    expect(result.action).toBe("block");
    expect(result.outcomes[0]?.status).toBe("timeout");
    await closed;
  });

  it.each([
    [
      "deep nesting",
      `{"ok": ${"[".repeat(30_000)}true${"]".repeat(30_000)}}`,
      "treated as a block",
    ],
    ["a second object", '{"ok": false, "reason": "no"}{"ok": true}', "no"],
    ["an allow in other fields", '{"decision": "approve", "continue": true}', "treated as a block"],
    ["ok as text", '{"ok": "true"}', "treated as a block"],
    ["a lone surrogate reason", '{"ok": 0, "reason": "\\ud800"}', "treated as a block"],
  ])("an answer with %s blocks, even from a fail-open hook", async (_what, content, reason) => {
    for (const failBehavior of ["block", "continue"] as const) {
      const { fire } = await guarded(
        [(_req, res) => res.writeHead(200).end(completion(content))],
        1000,
        failBehavior,
      );
      const result = await fire();
      expect(result.action).toBe("block");
      expect(result.reason).toContain(reason);
    }
  });

  it("many firings at once against a slow provider all end at their timeout, none allowed", async () => {
    const { fire } = await guarded([() => {}], 300);
    const results = await Promise.all(Array.from({ length: 50 }, () => fire()));
    for (const result of results) {
      expect(result.action).toBe("block");
      expect(result.outcomes[0]?.status).toBe("timeout");
    }
  });
});
