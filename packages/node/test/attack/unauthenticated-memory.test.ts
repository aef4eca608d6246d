/**
 * Strangers without a token must not be able to make the hook server hold their bytes: 150
 * gRPC calls or WebSockets, each sending a message of almost 4 MiB (the largest the server
 * accepts) and never finishing it, against a server in its own process whose live memory is
 * measured before and after.
 */
import { type ClientHttp2Stream, connect as connectHttp2 } from "node:http2";
import { PROTOCOL } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startHookServerProcess } from "./hook-server-child.js";

const ATTACKERS = 150;
const MESSAGE = 4 * 1024 * 1024 - 1;
const MiB = 1024 * 1024;
/** Far below one attacker's bytes each: whatever the server keeps of them is per connection. */
const ALLOWED_GROWTH = 48 * MiB;

/** The bytes of a message that announces `MESSAGE` bytes and stops one short. */
const body = Buffer.alloc(5 + MESSAGE - 1);
body.writeUInt32BE(MESSAGE, 1);

/** Resolves once the server answered the stream or took every byte of it. */
function attackStream(stream: ClientHttp2Stream): Promise<void> {
  return new Promise<void>((resolve) => {
    stream.on("error", () => resolve());
    stream.once("response", () => resolve());
    stream.once("close", () => resolve());
    stream.write(body, () => resolve());
  });
}

describe("unauthenticated callers", () => {
  it("cannot make the server hold their gRPC messages", async () => {
    const server = await startHookServerProcess({ server: { token: "attack-token" } });
    const before = await server.memory();
    const sessions = Array.from({ length: 10 }, () =>
      connectHttp2(`http://${server.address}`).on("error", () => {}),
    );
    try {
      await Promise.all(
        Array.from({ length: ATTACKERS }, (_, i) =>
          attackStream(
            sessions[i % sessions.length]!.request({
              ":method": "POST",
              ":path": "/a3s.hooks.v1.HookService/RegisterHook",
              "content-type": "application/grpc",
              te: "trailers",
              authorization: "Bearer wrong",
              "x-a3s-client-id": `attacker-${i}`,
            }),
          ),
        ),
      );
      const growth = (await server.memory()) - before;
      expect(growth).toBeLessThan(ALLOWED_GROWTH);
    } finally {
      for (const s of sessions) s.destroy();
    }
  });

  it("cannot make the server hold a frame sent before Hello", async () => {
    const server = await startHookServerProcess({ server: { token: "attack-token" } });
    const before = await server.memory();
    const sockets: WebSocket[] = [];
    try {
      await Promise.all(
        Array.from({ length: ATTACKERS }, async () => {
          const ws = new WebSocket(`ws://${server.address}/`, PROTOCOL);
          sockets.push(ws);
          ws.on("error", () => {});
          await new Promise((resolve) => ws.once("open", resolve));
          // One masked text frame (mask key 0) announcing MESSAGE bytes, one byte short.
          const head = Buffer.alloc(14);
          head[0] = 0x81;
          head[1] = 0x80 | 127;
          head.writeBigUInt64BE(BigInt(MESSAGE), 2);
          const raw = (ws as unknown as { _socket: import("node:net").Socket })._socket;
          await new Promise<void>((resolve) => {
            raw.once("close", () => resolve());
            raw.write(head);
            raw.write(body.subarray(5), () => resolve());
          });
        }),
      );
      const growth = (await server.memory()) - before;
      expect(growth).toBeLessThan(ALLOWED_GROWTH);
    } finally {
      for (const ws of sockets) ws.terminate();
    }
  });
});
