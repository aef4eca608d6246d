/**
 * An answer too big for the wire, from a real A3sClient to a real hook server on 127.0.0.1,
 * over gRPC and over WebSocket. A guard's block reason often quotes the input, whose size the
 * attacker picks: the block must still arrive as a block (its reason cut), never turn into the
 * hook's fail behaviour (a continue, for a fail-open hook) because the server refused it.
 */

import { createEvent, HookEngine, type HookError } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { A3sClient, createWebSocketTransport } from "../src/index.js";

const TOKEN = "oversized-answers-token";
let server: HookServer | undefined;
let client: A3sClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe.each([
  ["gRPC", {}],
  ["WebSocket", { transport: createWebSocketTransport }],
] as const)("an oversized answer from an A3sClient over %s", (_name, transport) => {
  async function connect(register: (client: A3sClient) => void) {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, ...transport });
    register(client);
    await client.ready();
    return engine;
  }

  // Past the wire schema's limit on a reason (the server refuses the answer), and past the
  // message limit (the server ends the client's stream).
  it.each([100_000, 5_000_000])(
    "a fail-open hook's block with a %i-character reason is a block, its reason cut",
    async (size) => {
      const engine = await connect((c) =>
        c.registerHook("PreToolUse", {
          config: { failBehavior: "continue" },
          // A guard quoting the input it refuses, several times over.
          handler: (event) => ({
            action: "block",
            reason: `refused: ${String(event.args.command).repeat(5)}`,
          }),
        }),
      );
      const result = await engine.fire(bash("x".repeat(size / 5)));
      expect(result.action).toBe("block");
      expect(result.outcomes[0]!.error).toBeUndefined();
      expect(result.reason!.startsWith(`refused: ${"x".repeat(8000)}`)).toBe(true);
      expect(result.reason).toMatch(/x… \(\d+ more characters\)$/);
      expect(result.reason!.length).toBeLessThan(8300);
      // The stream survived: the next firing is answered by the hook, not by its fail behaviour.
      const next = await engine.fire(bash("ls"));
      expect(next.action).toBe("block");
      expect(next.reason).toBe("refused: lslslslsls");
    },
  );

  it("a modification too big to send fails the hook with LIMIT_EXCEEDED, under its fail behaviour", async () => {
    const errors: HookError[] = [];
    const engine = await connect((c) => {
      c.on("error", (error) => errors.push(error));
      c.registerHook("PreToolUse", {
        config: { failBehavior: "block", name: "rewriter" },
        handler: () => ({ action: "continue", modified: { args: { command: "y".repeat(5e6) } } }),
      });
    });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.reason).toContain("rewriter");
    // The wire carries a failure's text, not its code: the agent sees a handler failure.
    expect(result.outcomes[0]!.error).toMatchObject({
      code: "HANDLER_FAILED",
      message: expect.stringContaining("HookResponse.modified: 5000023 bytes of JSON"),
    });
    expect(errors).toMatchObject([
      { code: "LIMIT_EXCEEDED", details: { hookId: expect.any(String) } },
    ]);
    // Nothing too big was sent: the stream is still open.
    expect(server!.hub.clients()).toMatchObject([{ connected: true }]);
  });
});
