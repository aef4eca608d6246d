import { A3sClient, createWebSocketTransport } from "@a3s-lab/box";
import { HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { eventOfSize } from "../payload.js";
import { firing } from "./remote-peers.js";
import { hookEventFrame } from "./remote-ws.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("hookEventFrame: the bytes the raw ws echo sends", () => {
  it("is the HookEvent text frame our server sends for the same firing, field for field", async () => {
    const received: string[] = [];
    // ws's own class, listening to every text frame the client is sent.
    class Recording extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols);
        this.on("message", (data, isBinary) => {
          if (!isBinary) received.push(String(data));
        });
      }
    }
    const engine = new HookEngine();
    const server: HookServer = await createHookServer({
      engine,
      host: "127.0.0.1",
      port: 0,
      token: "bench-test-token",
    });
    cleanup.push(() => server.close());
    const client = new A3sClient({
      address: server.webSocketUrl!,
      token: "bench-test-token",
      transport: (options) => createWebSocketTransport({ ...options, WebSocket: Recording }),
    });
    cleanup.push(() => client.close());
    client.registerHook("PreToolUse", () => ({ action: "continue" }));
    await client.ready();

    const event = firing(eventOfSize(1024), 7, "frame-check");
    const result = await engine.fire(event);
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok"]);

    const sent = received.map((t) => JSON.parse(t)).find((f) => f.type === "HookEvent");
    expect(sent).toBeDefined();
    const ours = JSON.parse(hookEventFrame(event));
    expect(Object.keys(ours)).toEqual(Object.keys(sent));
    expect(ours.payload).toEqual(sent.payload);
    expect(ours.eventId).toBe(sent.eventId);
    expect(ours.eventType).toBe(sent.eventType);
    // Only the values of the hook id (a UUID either way) and the deadline differ: same length.
    const sentText = received.find((t) => t.includes('"type":"HookEvent"'))!;
    expect(hookEventFrame(event)).toHaveLength(sentText.length);
  });
});
