/**
 * A remote client registers a pattern that takes a backtracking engine exponential time
 * (`^(x+)+y` over forty x's: hours). The hook server runs in its own process, so a stall shows
 * up here as a firing that never answers (the test's timeout), not as a frozen test runner.
 */
import type { HookStream } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import { startHookServerProcess } from "./hook-server-child.js";

const TOKEN = "catastrophic-pattern-token";

/** A hook server in its own process, and a gRPC client of it with its hook stream open. */
async function connected(clientId: string) {
  const server = await startHookServerProcess({ server: { token: TOKEN } });
  const transport = createGrpcTransport({ address: server.address, clientId, token: TOKEN });
  let stream: HookStream | undefined;
  stream = await transport.openHookStream({
    onEvent: (event) => {
      if (event.cancel) return;
      stream?.send({ hookId: event.hookId, eventId: event.eventId, action: "continue" });
    },
    onClose: () => {},
  });
  const close = () => {
    stream?.close();
    transport.close();
  };
  return { server, transport, close };
}

describe("a catastrophic pattern from a remote client", () => {
  it("is matched in linear time: the agent answers, and keeps answering", async () => {
    const { server, transport, close } = await connected("pattern-client");
    try {
      await transport.call("RegisterHook", {
        eventType: "PreToolUse",
        hookId: "h",
        matcher: { commandPattern: "^(x+)+y" },
      });
      // Commands of forty x's, two at once: a backtracking engine would not answer today.
      const results = await server.fireMany(2, 40);
      expect(results).toEqual(["continue", "continue"]);
      expect(await server.fire()).toMatchObject({ action: "continue" });
    } finally {
      close();
    }
  });

  it("is refused at registration when RE2 cannot run it, naming the field", async () => {
    const { transport, close } = await connected("lookaround-client");
    try {
      await expect(
        transport.call("RegisterHook", {
          eventType: "PreToolUse",
          hookId: "h",
          matcher: { commandPattern: "^(?!git status)" },
        }),
      ).rejects.toMatchObject({
        code: "INVALID_PATTERN",
        message: expect.stringContaining("matcher.command_pattern: invalid regular expression"),
      });
    } finally {
      close();
    }
  });
});
