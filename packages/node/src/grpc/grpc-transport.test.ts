import { createServer } from "node:net";
import { credentials } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
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
      ...["127.0.0.2:1", "localhost:1", "[::1]:1", "dns:///127.0.0.1:1", "unix:/tmp/a3s.sock"].map(
        (address) => createGrpcTransport({ address, clientId: "c", token: "t" }),
      ),
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
