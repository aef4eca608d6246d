import { createServer } from "node:net";
import { HookEngine } from "@a3s-lab/hooks-core";
import { credentials } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { createHookServer } from "../server/create-hook-server.js";
import { createGrpcTransport } from "./grpc-transport.js";

/** A port nothing listens on: bind one, note it, close it. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("createGrpcTransport", () => {
  it("refuses options it cannot use, naming the field", () => {
    expect(() => createGrpcTransport({ address: "", clientId: "c" })).toThrow("options.address");
    expect(() => createGrpcTransport({ address: "127.0.0.1:1", clientId: "a b" })).toThrow(
      "options.clientId",
    );
  });

  it("answers UNAVAILABLE when no agent listens, and ABORTED for an aborted call", async () => {
    const transport = createGrpcTransport({
      address: `127.0.0.1:${await deadPort()}`,
      clientId: "c",
    });
    try {
      await expect(transport.call("ListHooks", {})).rejects.toMatchObject({ code: "UNAVAILABLE" });
      await expect(transport.openHookStream({ onEvent() {}, onClose() {} })).rejects.toMatchObject({
        code: "UNAVAILABLE",
      });
      await expect(
        transport.call("ListHooks", {}, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({
        code: "ABORTED",
      });
    } finally {
      await transport.close();
    }
    await expect(transport.call("ListHooks", {})).rejects.toThrow("the transport is closed");
    await expect(transport.openHookStream({ onEvent() {}, onClose() {} })).rejects.toThrow(
      "the transport is closed",
    );
  });
});

describe("createGrpcTransport: plaintext to another machine", () => {
  it("refuses an address that is not this machine without TLS, naming both ways out", () => {
    for (const address of [
      "10.0.0.5:16300",
      "agent.example:16300",
      "0.0.0.0:16300",
      "dns:///agent.example:16300",
      "localhost:1?@agent.example",
      "127.0.0.1@agent.example:1",
      // A URL parser drops the trailing dot; the system resolver asks DNS for these names.
      "127.0.0.1.:1",
      "localhost.:1",
      "LOCALHOST.:1",
      "127.1:1",
      // grpc-js sends the lookup to the named server.
      "dns://8.8.8.8/localhost:1",
      "dns://localhost/127.0.0.1:1",
    ]) {
      expect(() => createGrpcTransport({ address, clientId: "c", token: "t" }), address).toThrow(
        expect.objectContaining({
          code: "INVALID_CONFIG",
          message: expect.stringMatching(/credentials.*allowPlaintextRemote: true/),
        }),
      );
    }
  });

  it("accepts this machine, TLS credentials, or the explicit opt-in", async () => {
    const made = [
      ...[
        "127.0.0.2:1",
        "127.0.0.1:1",
        "localhost:1",
        "LocalHost:1",
        "[::1]:1",
        "dns:///127.0.0.1:1",
        "dns:///localhost:1",
        "unix:/tmp/a3s.sock",
      ].map((address) => createGrpcTransport({ address, clientId: "c", token: "t" })),
      createGrpcTransport({
        address: "agent.example:16300",
        clientId: "c",
        credentials: credentials.createSsl(),
      }),
      createGrpcTransport({
        address: "agent.example:16300",
        clientId: "c",
        allowPlaintextRemote: true,
      }),
    ];
    await Promise.all(made.map((t) => t.close()));
  });
});

describe("createGrpcTransport: the environment's proxy", () => {
  const PROXY_VARIABLES = ["grpc_proxy", "https_proxy", "http_proxy", "no_grpc_proxy", "no_proxy"];

  it("plaintext never goes through grpc_proxy: the proxy hears nothing and the call reaches the agent", async () => {
    const heard: string[] = [];
    const proxy = createServer((socket) => {
      socket.on("data", (chunk) => {
        heard.push(chunk.toString("latin1"));
        // Refusing the tunnel makes a proxied call fail at once instead of waiting.
        socket.destroy();
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyPort = (proxy.address() as { port: number }).port;
    const server = await createHookServer({ engine: new HookEngine(), port: 0, token: "t" });
    const port = server.address.split(":").at(-1);
    const saved = PROXY_VARIABLES.map((name) => [name, process.env[name]] as const);
    // grpc-js reads these when the channel is made.
    for (const name of PROXY_VARIABLES) delete process.env[name];
    process.env.grpc_proxy = `http://127.0.0.1:${proxyPort}`;
    const transport = createGrpcTransport({
      address: `localhost:${port}`,
      clientId: "c",
      token: "t",
    });
    try {
      await transport.openHookStream({ onEvent() {}, onClose() {} });
      expect(await transport.call("ListHooks", {})).toEqual({ hooks: [] });
      expect(heard).toEqual([]);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await transport.close();
      await server.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
