import { claudeCodeEvents, createEvent, defineEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer } from "@a3s-lab/hooks-node";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { A3sClient, createWebSocketTransport } from "../src/index.js";

// Host-defined events are not in this package's HookEventMap: name them untyped.
const untyped = <T>(name: string) => name as unknown as T;

defineEvent("DeployStart", {
  schema: z.object({ target: z.string() }),
  canBlock: true,
  matcherTarget: "target",
});
defineEvent(claudeCodeEvents.TaskCreated);

describe("events a host defines, over the wire", () => {
  it.each([
    ["gRPC", undefined],
    ["WebSocket", createWebSocketTransport],
  ])(
    "a remote hook registered over %s matches and blocks a host-defined event",
    async (_, transport) => {
      const engine = new HookEngine();
      const server = await createHookServer({ engine, port: 0, token: "t" });
      const client = new A3sClient({
        address: server.address,
        token: "t",
        ...(transport ? { transport } : {}),
      });
      try {
        client.registerHook(untyped<"Stop">("DeployStart"), {
          matcher: "prod",
          handler: (event) => ({
            action: "block",
            reason: `no deploys to ${(event as unknown as { target: string }).target}`,
          }),
        });
        client.registerHook(untyped<"Stop">("task_created"), () => ({
          action: "block",
          reason: "frozen",
        }));
        await client.ready();
        const fire = (name: string, fields: object) =>
          engine.fire(createEvent(untyped<"Stop">(name), { sessionId: "s", ...fields } as never));
        expect(await fire("DeployStart", { target: "prod" })).toMatchObject({
          action: "block",
          reason: "no deploys to prod",
        });
        expect((await fire("DeployStart", { target: "dev" })).action).toBe("continue");
        expect(await fire("TaskCreated", { taskId: "1", taskSubject: "x" })).toMatchObject({
          action: "block",
          reason: "frozen",
        });
      } finally {
        await client.close();
        await server.close();
      }
    },
  );

  it("an event nobody defined is refused at registration, saying how to opt in", async () => {
    const engine = new HookEngine();
    const server = await createHookServer({ engine, port: 0, token: "t" });
    const client = new A3sClient({ address: server.address, token: "t" });
    try {
      expect(() => client.registerHook(untyped<"Stop">("TeammateIdle"), () => undefined)).toThrow(
        /defineEvent\(claudeCodeEvents\.TeammateIdle\)/,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });
});
