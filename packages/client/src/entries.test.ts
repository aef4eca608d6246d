import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, HookHub } from "@a3s-lab/hooks-node";
import { describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { MemoryLine } from "../test/fixtures/memory-transport.js";
import * as browser from "./browser.js";
import * as node from "./index.js";

describe("the package's entries", () => {
  it("export the same names for Node and for browsers", () => {
    expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
  });

  it("read A3S_ADDRESS and A3S_TOKEN in Node", async () => {
    vi.stubEnv("A3S_ADDRESS", "memory:7");
    vi.stubEnv("A3S_TOKEN", "from-env");
    const line = new MemoryLine(new HookHub({ engine: new HookEngine() }), "from-env");
    const client = new node.A3sClient({ transport: line.factory });
    expect(client.address).toBe("memory:7");
    client.registerHook("Stop", () => undefined);
    // The token came from the environment: the agent accepted it.
    await client.ready();
    await client.close();
  });

  it("fall back to 127.0.0.1 and the default port", () => {
    vi.stubEnv("A3S_ADDRESS", "");
    const line = new MemoryLine(new HookHub({ engine: new HookEngine() }));
    expect(new node.A3sClient({ transport: line.factory }).address).toBe(
      `127.0.0.1:${node.DEFAULT_HOOK_PORT}`,
    );
  });

  it("in browsers, speak WebSocket by default to the host that served the page", async () => {
    const engine = new HookEngine();
    const server = await createHookServer({ engine, port: 0, token: "page-token" });
    // What a page has: a global WebSocket and its location; no process.env.
    vi.stubGlobal("WebSocket", WebSocket);
    vi.stubGlobal("location", { protocol: "http:", host: server.address });
    const client = new browser.A3sClient({ token: "page-token", clientId: "page-1" });
    try {
      expect(client.address).toBe(server.address);
      client.registerHook("PreToolUse", () => ({ action: "block", reason: "from the page" }));
      await client.ready();
      const result = await engine.fire(
        createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }),
      );
      expect(result).toMatchObject({ action: "block", reason: "from the page" });
      expect(server.hub.clients()).toMatchObject([{ clientId: "page-1", connected: true }]);
    } finally {
      await client.close();
      await server.close();
      vi.unstubAllGlobals();
    }
  });

  it("say what to do in a runtime without WebSocket", () => {
    vi.stubGlobal("WebSocket", undefined);
    expect(() => new browser.A3sClient()).toThrow(/options\.WebSocket/);
    vi.unstubAllGlobals();
  });

  it("offer the WebSocket transport in Node too, on the ws package", async () => {
    const engine = new HookEngine();
    const server = await createHookServer({ engine, port: 0, token: "t" });
    const client = new node.A3sClient({
      address: server.address,
      token: "t",
      transport: node.createWebSocketTransport,
    });
    try {
      client.registerHook("Stop", () => undefined);
      await client.ready();
      expect(engine.list().map((h) => h.source)).toEqual([`remote:${client.clientId}`]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("refuse plaintext to another machine unless told allowPlaintextRemote, like the Python client", async () => {
    for (const make of [
      () => new node.A3sClient({ address: "10.0.0.5:16300", token: "t" }),
      () =>
        new node.A3sClient({
          address: "ws://agent.example:16300",
          transport: node.createWebSocketTransport,
        }),
    ]) {
      expect(make).toThrow(
        expect.objectContaining({
          code: "INVALID_CONFIG",
          message: expect.stringContaining("allowPlaintextRemote: true"),
        }),
      );
    }
    vi.stubGlobal("WebSocket", WebSocket);
    vi.stubGlobal("location", { protocol: "http:", host: "agent.example:16300" });
    try {
      expect(() => new browser.A3sClient({ token: "t" })).toThrow(/allowPlaintextRemote: true/);
      await new browser.A3sClient({ token: "t", allowPlaintextRemote: true }).close();
    } finally {
      vi.unstubAllGlobals();
    }
    await new node.A3sClient({ address: "10.0.0.5:16300", allowPlaintextRemote: true }).close();
  });

  it("pass allowPlaintextRemote to the transport only when it is set", () => {
    const seen: unknown[] = [];
    const factory = (options: unknown) => {
      seen.push(options);
      return {} as never;
    };
    new node.A3sClient({ address: "memory:1", transport: factory });
    new node.A3sClient({ address: "memory:1", transport: factory, allowPlaintextRemote: true });
    expect(seen).toMatchObject([{}, { allowPlaintextRemote: true }]);
    expect(seen[0]).not.toHaveProperty("allowPlaintextRemote");
    expect(
      () => new node.A3sClient({ transport: factory, allowPlaintextRemote: "yes" as never }),
    ).toThrow("options.allowPlaintextRemote");
  });

  it("refuses a client id outside the protocol's charset", () => {
    expect(
      () => new node.A3sClient({ clientId: "no spaces", transport: () => ({}) as never }),
    ).toThrow("options.clientId");
  });
});
