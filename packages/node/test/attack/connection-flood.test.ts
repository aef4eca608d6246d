/**
 * A flood of idle connections that never authenticate must not use up the server's file
 * descriptors: against a server process started with `ulimit -n 256`, 400 connections that
 * send nothing are held open while a client with the token registers a hook and the agent
 * fires an event that a command hook (a process of its own, pipes and all) must block.
 */
import { connect, type Socket } from "node:net";
import type { HookStream } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import { startHookServerProcess } from "./hook-server-child.js";

const TOKEN = "flood-token";
const FLOOD = 400;

describe("a flood of idle connections", () => {
  it("leaves room for a client with the token and for command hooks", async () => {
    const server = await startHookServerProcess({
      server: { token: TOKEN },
      blockingCommandHook: true,
      fdLimit: 256,
    });
    const flood: Socket[] = [];
    const transport = createGrpcTransport({
      address: server.address,
      clientId: "guard-client",
      token: TOKEN,
    });
    let stream: HookStream | undefined;
    try {
      // Every connection is made (the server accepted or refused it) before the client comes.
      await Promise.all(
        Array.from(
          { length: FLOOD },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect(server.port, "127.0.0.1");
              flood.push(socket);
              socket.on("error", () => resolve());
              socket.once("connect", () => resolve());
            }),
        ),
      );
      // A command hook needs descriptors of its own (its pipes): it must start, and block.
      const before = await server.fire();
      expect(before.reason).toContain("blocked by the command hook");
      expect(before.action).toBe("block");

      stream = await transport.openHookStream({
        onEvent: (event) => {
          if (event.cancel) return;
          stream?.send({ hookId: event.hookId, eventId: event.eventId, action: "continue" });
        },
        onClose: () => {},
      });
      await transport.call("RegisterHook", {
        eventType: "PreToolUse",
        hookId: "remote-guard",
        config: { name: "remote-guard" },
      });

      const result = await server.fire();

      expect(result.action).toBe("block");
      expect(result.reason).toContain("blocked by the command hook");
      // The remote hook answered: it ran, and did not fail for want of its client.
      const remote = result.outcomes.find((o) => o.name === "remote-guard");
      expect(remote).toBeDefined();
      expect(remote?.error).toBeUndefined();
    } finally {
      stream?.close();
      transport.close();
      for (const socket of flood) socket.destroy();
    }
  });
});
