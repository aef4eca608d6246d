/**
 * What a user reads when the client cannot connect: a real gRPC hook server that wants a token,
 * and a real port on 127.0.0.1 where nothing listens.
 */
import { createServer } from "node:net";
import { HookEngine, HookError } from "@a3s-lab/hooks-core";
import { createHookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { A3sClient, createWebSocketTransport } from "../src/index.js";

const opened: A3sClient[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

/** A port that was just free: bound, then released, so connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function client(options: ConstructorParameters<typeof A3sClient>[0]): A3sClient {
  const c = new A3sClient(options);
  opened.push(c);
  c.registerHook("Stop", () => undefined);
  return c;
}

describe("A3sClient connection errors", () => {
  it("without a token, says to set A3S_TOKEN or pass token", async () => {
    vi.stubEnv("A3S_TOKEN", "");
    const server = await createHookServer({ engine: new HookEngine(), port: 0, token: "secret" });
    try {
      const c = client({ address: server.address });
      const error = await c.ready().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HookError);
      expect(error).toMatchObject({
        code: "UNAUTHENTICATED",
        message: `the agent at ${server.address} needs a token: set A3S_TOKEN or pass token`,
      });
      expect(c.state).toBe("failed");
    } finally {
      await server.close();
    }
  });

  it("with a wrong token, keeps the agent's words", async () => {
    const server = await createHookServer({ engine: new HookEngine(), port: 0, token: "secret" });
    try {
      const c = client({ address: server.address, token: "wrong" });
      await expect(c.ready()).rejects.toThrow("authorization: the token is not valid");
    } finally {
      await server.close();
    }
  });

  it("on a port where nothing listens, ready() fails at once in plain words", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    // Far beyond the test's own timeout: only the refusal can answer in time (no clock read,
    // which a loaded machine would make flaky).
    const c = client({ address, token: "t", connectTimeoutMs: 600_000 });
    const errors: HookError[] = [];
    c.on("error", (e) => errors.push(e));
    const error = (await c.ready().catch((e: unknown) => e)) as HookError;
    expect(error).toMatchObject({
      code: "UNAVAILABLE",
      message: `no agent is listening at ${address} (connection refused): start the agent, or give the address it listens on (A3S_ADDRESS or the address option)`,
    });
    expect(errors[0]?.message).toBe(error.message);
    // The transport's own words, under it, are plain too.
    expect((error.cause as HookError).message).toBe(`connection refused by ${address}`);
    expect(String(error.cause)).not.toContain("Resolution note");
    // It keeps trying, for an agent that starts later.
    expect(c.state).toBe("reconnecting");
  });

  it("over WebSocket too, a refused port fails ready() at once with the same words", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    // Far beyond the test's own timeout: only the refusal can answer in time.
    const c = client({
      address,
      token: "t",
      connectTimeoutMs: 600_000,
      transport: createWebSocketTransport,
    });
    const error = (await c.ready().catch((e: unknown) => e)) as HookError;
    expect(error).toMatchObject({
      code: "UNAVAILABLE",
      message: `no agent is listening at ${address} (connection refused): start the agent, or give the address it listens on (A3S_ADDRESS or the address option)`,
    });
    expect((error.cause as HookError).message).toBe(`connection refused by ${address}`);
    expect(c.state).toBe("reconnecting");
  });
});
