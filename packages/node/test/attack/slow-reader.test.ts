/**
 * A client that opens its hook stream and then stops reading must not make the server queue
 * every firing for it: 40 firings of about 3.9 MB each go to a client whose gRPC stream (or
 * WebSocket) never reads. The server bounds what it queues for that client, cuts it off,
 * answers its firings with the hook's fail behaviour (a block) for that reason, not at the
 * hook's timeout or when a keepalive notices, and holds nothing once the client has left.
 */
import { type ClientHttp2Session, connect as connectHttp2, constants } from "node:http2";
import type { Socket } from "node:net";
import { PROTOCOL } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadHooksProto } from "../../src/grpc/hooks-proto.js";
import { type HookServerChild, startHookServerProcess } from "./hook-server-child.js";

const TOKEN = "slow-reader-token";
const MiB = 1024 * 1024;
const FIRINGS = 40;
const EVENT_BYTES = 3_900_000;
const HOOK_TIMEOUT_MS = 20_000;

/** Fire while the client reads nothing; check what the firings got and what the server kept. */
async function fireAtStalledClient(server: HookServerChild, before: number): Promise<void> {
  const firings = await server.fireMany(FIRINGS, EVENT_BYTES);
  for (const firing of firings) {
    expect(firing).toMatch(/^block: /);
    // Cut off for not reading, or refused once it was: none left to its timeout or a keepalive.
    expect(firing).toMatch(/not reading|its client is disconnected|the stream has ended/);
  }
  expect(firings.some((f) => f.includes("not reading"))).toBe(true);
  const held = (await server.memory()) - before;
  // 40 firings are 156 MB; the client may have a few queued, no more.
  expect(held).toBeLessThan(48 * MiB);
}

/** A gRPC message: the 5-byte prefix, then the protobuf bytes. */
function frame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

function headers(path: string, extra: Record<string, string> = {}) {
  return {
    ":method": "POST",
    ":path": `/a3s.hooks.v1.HookService/${path}`,
    "content-type": "application/grpc",
    te: "trailers",
    authorization: `Bearer ${TOKEN}`,
    "x-a3s-client-id": "slow-reader",
    ...extra,
  };
}

/** A unary call over the raw session; resolves with its grpc-status. */
function unary(session: ClientHttp2Session, path: string, body: Buffer, extra = {}) {
  return new Promise<string>((resolve, reject) => {
    const call = session.request(headers(path, extra));
    let status = "";
    call.on("response", (h) => {
      if (h["grpc-status"] !== undefined) status = String(h["grpc-status"]);
    });
    call.on("trailers", (t) => {
      status = String(t["grpc-status"]);
    });
    call.on("error", reject);
    call.on("close", () => resolve(status));
    call.resume();
    call.end(frame(body));
  });
}

describe("a client that stops reading", () => {
  it("over gRPC gets its firings answered with the fail behaviour, and costs a bounded queue", async () => {
    const server = await startHookServerProcess({ server: { token: TOKEN } });
    const before = await server.memory();
    const session = connectHttp2(`http://${server.address}`);
    session.on("error", () => {});
    try {
      // The hook stream: opened, then never read from (its flow-control window fills).
      const stream = session.request(headers("HookStream"));
      stream.on("error", () => {});
      const answer = await new Promise<Record<string, string>>((resolve) =>
        stream.once("response", (h) => resolve(h as Record<string, string>)),
      );
      stream.pause();
      // Whatever identifies this stream's client to later calls (if the server gives it).
      const carried = Object.fromEntries(
        Object.entries(answer).filter(([name]) => name.startsWith("x-a3s-client-")),
      );
      const register = loadHooksProto().HookService.RegisterHook!.requestSerialize({
        eventType: "PreToolUse",
        hookId: "slow",
        config: { failBehavior: "FAIL_BEHAVIOR_BLOCK", timeoutMs: HOOK_TIMEOUT_MS },
      });
      expect(await unary(session, "RegisterHook", register, carried)).toBe("0");
      await fireAtStalledClient(server, before);
    } finally {
      session.destroy(undefined, constants.NGHTTP2_CANCEL);
    }
    expect((await server.memory()) - before).toBeLessThan(16 * MiB);
  });

  it("over WebSocket gets its firings answered with the fail behaviour, and costs a bounded queue", async () => {
    const server = await startHookServerProcess({ server: { token: TOKEN } });
    const before = await server.memory();
    const ws = new WebSocket(`ws://${server.address}/`, PROTOCOL);
    ws.on("error", () => {});
    try {
      const frames: { type: string; id?: string }[] = [];
      const next = (type: string) =>
        new Promise<void>((resolve) => {
          const check = () => (frames.some((f) => f.type === type) ? resolve() : undefined);
          ws.on("message", check);
          check();
        });
      ws.on("message", (data) => frames.push(JSON.parse(String(data))));
      await new Promise((resolve) => ws.once("open", resolve));
      ws.send(
        JSON.stringify({
          type: "Hello",
          clientId: "slow-reader",
          token: TOKEN,
          protocol: PROTOCOL,
        }),
      );
      await next("Welcome");
      ws.send(
        JSON.stringify({
          type: "RegisterHookRequest",
          id: "r1",
          eventType: "PreToolUse",
          hookId: "slow",
          config: { failBehavior: "block", timeoutMs: HOOK_TIMEOUT_MS },
        }),
      );
      await next("RegisterHookResponse");
      // From now on nothing is read: the kernel's buffers fill, then the server's.
      (ws as unknown as { _socket: Socket })._socket.pause();
      await fireAtStalledClient(server, before);
    } finally {
      ws.terminate();
    }
    expect((await server.memory()) - before).toBeLessThan(16 * MiB);
  });
});
