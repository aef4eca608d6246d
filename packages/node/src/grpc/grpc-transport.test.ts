import { createServer } from "node:net";
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
