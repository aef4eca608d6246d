import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch, spawnProxy, writeSettings } from "./proxy-process.ts";

const LOOSE = resolve(import.meta.dirname, "fixtures/loose-server.mjs");

/**
 * The proxy as a process in front of a server that runs whatever it reads as `tools/call`,
 * spoken to in raw JSON-RPC lines: what a client could send, not what the SDK's client would.
 */
describe("the proxy in front of a server that reads method names loosely", () => {
  let box: ReturnType<typeof scratch>;
  let ran: string;
  let proxy: ReturnType<typeof spawnProxy>;
  const answers = new Map<string | number, JSONRPCMessage>();
  const waiting = new Map<string | number, () => void>();

  const send = (message: unknown) => proxy.transport.send(message as JSONRPCMessage);
  const answer = (id: number) =>
    new Promise<JSONRPCMessage>((done) => {
      const check = () => {
        const got = answers.get(id);
        if (got) done(got);
        else waiting.set(id, check);
      };
      check();
    });
  const calls = () =>
    existsSync(ran)
      ? readFileSync(ran, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l))
      : [];

  beforeAll(async () => {
    box = scratch();
    ran = join(box.dir, "ran.jsonl");
    const settings = writeSettings(box.dir, "settings.json", {
      PreToolUse: [{ matcher: "mcp__loose__wipe", command: "echo 'no wiping' >&2; exit 2" }],
    });
    proxy = spawnProxy(["--settings", settings, "--name", "loose"], ["node", LOOSE, ran], box.dir);
    proxy.transport.onmessage = (message) => {
      if ("id" in message && message.id !== undefined) {
        answers.set(message.id, message);
        waiting.get(message.id)?.();
      }
    };
    await proxy.transport.start();
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    expect(await answer(1)).toHaveProperty("result");
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }, 60_000);

  afterAll(async () => {
    await proxy?.transport.close();
    box?.cleanup();
  });

  const wipe = { name: "wipe", arguments: {} };

  it("guards tools/call: the hook blocks it and the server never runs it", async () => {
    await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: wipe });
    expect(await answer(2)).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining("no wiping") }] },
    });
    expect(calls()).toEqual([]);
  });

  it.each([
    ["Tools/Call", 10],
    ["tools/call ", 11],
    [" tools/call", 12],
    ["TOOLS/CALL", 13],
    ["tools/call\n", 14],
    ["x-custom/run", 15],
  ])(
    "a request named %j is refused (MethodNotFound) and never reaches the server",
    async (method, id) => {
      await send({ jsonrpc: "2.0", id, method, params: wipe });
      expect(await answer(id)).toMatchObject({ error: { code: -32601 } });
    },
  );

  it("a known method with malformed params is refused (InvalidParams)", async () => {
    await send({ jsonrpc: "2.0", id: 20, method: "resources/read", params: { uri: 42 } });
    expect(await answer(20)).toMatchObject({ error: { code: -32602 } });
  });

  it("tools/call as a notification, or with any spelling, is never forwarded; nothing ran", async () => {
    for (const method of ["tools/call", "Tools/Call", "tools/call ", "notifications/tools/call"]) {
      await send({ jsonrpc: "2.0", method, params: wipe });
    }
    // Not JSON-RPC 2.0: the proxy's transport drops them.
    await send({ jsonrpc: "1.0", id: 30, method: "tools/call", params: wipe });
    await send({ id: 31, method: "tools/call", params: wipe });
    // Messages are handled in order: once this answer is back, everything above was handled.
    await send({ jsonrpc: "2.0", id: 40, method: "tools/list", params: {} });
    expect(await answer(40)).toMatchObject({ result: { tools: [{ name: "wipe" }] } });
    // And the server had time to act on anything forwarded before tools/list.
    await send({ jsonrpc: "2.0", id: 41, method: "resources/list", params: {} });
    await answer(41);
    expect(calls()).toEqual([]);
    expect(answers.has(30)).toBe(false);
    expect(answers.has(31)).toBe(false);
  });
});
