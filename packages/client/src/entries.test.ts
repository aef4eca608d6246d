import { HookEngine } from "@a3s-lab/hooks-core";
import { HookHub } from "@a3s-lab/hooks-node";
import { describe, expect, it, vi } from "vitest";
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

  it("has no default transport in browsers yet, and says what to do", () => {
    expect(() => new browser.A3sClient()).toThrow(/pass options\.transport/);
    const line = new MemoryLine(new HookHub({ engine: new HookEngine() }));
    const client = new browser.A3sClient({ transport: line.factory, clientId: "page-1" });
    expect(client.clientId).toBe("page-1");
  });

  it("refuses a client id outside the protocol's charset", () => {
    expect(
      () => new node.A3sClient({ clientId: "no spaces", transport: () => ({}) as never }),
    ).toThrow("options.clientId");
  });
});
