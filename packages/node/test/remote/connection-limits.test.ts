/**
 * The hook server's connection limits, end to end on a real server: strangers must
 * authenticate within `authTimeoutMs`, send at most `webSocket.maxHelloBytes` before their
 * Hello, and open at most `maxStreamsPerConnection` calls at once; pages being served and
 * clients with the token are left alone.
 */
import { connect as connectHttp2 } from "node:http2";
import { connect, type Socket } from "node:net";
import { HookEngine } from "@a3s-lab/hooks-core";
import { PROTOCOL, WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createHookServer } from "../../src/server/create-hook-server.js";
import { useHookServers } from "./hook-server-fixture.js";

const TOKEN = "limits-token";
const { serve, cleanup } = useHookServers(TOKEN);

function http2(address: string) {
  const session = connectHttp2(`http://${address}`);
  session.on("error", () => {});
  cleanup.push(() => session.destroy());
  const closed = new Promise<void>((resolve) => session.once("close", () => resolve()));
  /** A ListHooks call with these credentials; resolves with its grpc-status. */
  const call = (authorization: string) =>
    new Promise<string>((resolve) => {
      const stream = session.request({
        ":method": "POST",
        ":path": "/a3s.hooks.v1.HookService/ListHooks",
        "content-type": "application/grpc",
        te: "trailers",
        authorization,
        "x-a3s-client-id": "limits",
      });
      let status = "";
      stream.on("response", (h) => (status = String(h["grpc-status"] ?? "")));
      stream.on("trailers", (t) => (status = String(t["grpc-status"])));
      stream.on("error", () => {});
      stream.on("close", () => resolve(status));
      stream.resume();
      stream.end(Buffer.alloc(5));
    });
  return { session, closed, call };
}

describe("connection limits", () => {
  it("closes a connection that says nothing within authTimeoutMs", async () => {
    const { server } = await serve({ authTimeoutMs: 100 });
    const socket = connect(server.port, "127.0.0.1");
    socket.on("error", () => {});
    cleanup.push(() => socket.destroy());
    await new Promise((resolve) => socket.once("close", resolve));
  });

  it("closes an HTTP/2 connection whose calls never authenticate, and keeps one whose call did", async () => {
    const { server } = await serve({ authTimeoutMs: 300 });
    const stranger = http2(server.address);
    const client = http2(server.address);
    // UNAUTHENTICATED (16) for the stranger; the client's call passed the token check (it
    // may still be refused for what it asks, but not for who it is).
    expect(await stranger.call("Bearer wrong")).toBe("16");
    expect(await client.call(`Bearer ${TOKEN}`)).not.toBe("16");
    await stranger.closed;
    expect(client.session.closed).toBe(false);
    expect(await client.call(`Bearer ${TOKEN}`)).not.toBe("16");
  });

  it("advertises maxStreamsPerConnection to HTTP/2 clients", async () => {
    const { server } = await serve({ maxStreamsPerConnection: 7 });
    const { session } = http2(server.address);
    await new Promise((resolve) => session.once("remoteSettings", resolve));
    expect(session.remoteSettings.maxConcurrentStreams).toBe(7);
  });

  it("closes a WebSocket that sends more than maxHelloBytes before its Hello, with 4413", async () => {
    const { server } = await serve({ webSocket: { maxHelloBytes: 4096 } });
    const ws = new WebSocket(server.webSocketUrl!, PROTOCOL);
    ws.on("error", () => {});
    cleanup.push(() => ws.terminate());
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    const error = new Promise<string>((resolve) =>
      ws.on("message", (data) => resolve(String(data))),
    );
    await new Promise((resolve) => ws.once("open", resolve));
    // The start of one masked frame (mask key 0) of 64 KiB: more than allowed, and unfinished,
    // so only the byte count can end it.
    const head = Buffer.from([0x81, 0x80 | 127, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    (ws as unknown as { _socket: Socket })._socket.write(
      Buffer.concat([head, Buffer.alloc(8192, "x")]),
    );
    expect(await closed).toBe(WS_CLOSE_CODES.frameTooLarge);
    expect(JSON.parse(await error)).toMatchObject({
      type: "Error",
      message: "Hello: more than 4096 bytes arrived before the Hello was accepted",
    });
  });

  it("lets a page take longer than authTimeoutMs to be served", async () => {
    let answer!: () => void;
    const asked = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let respond!: () => void;
    const { server } = await serve({
      authTimeoutMs: 100,
      httpHandler: (_request, response) => {
        respond = () => response.end("page");
        answer();
      },
    });
    const socket: Socket = connect(server.port, "127.0.0.1");
    socket.on("error", () => {});
    cleanup.push(() => socket.destroy());
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await asked;
    // A second, silent connection comes and goes by its deadline while the page is pending.
    const other = connect(server.port, "127.0.0.1");
    other.on("error", () => {});
    cleanup.push(() => other.destroy());
    await new Promise((resolve) => other.once("close", resolve));
    expect(socket.destroyed).toBe(false);
    respond();
    await new Promise((resolve) => socket.once("close", resolve));
    expect(text).toContain("page");
  });

  it("refuses limits that make no sense, naming the option", async () => {
    await expect(
      createHookServer({ engine: new HookEngine(), token: TOKEN, port: 0, maxConnections: 0 }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("maxConnections"),
    });
  });
});
