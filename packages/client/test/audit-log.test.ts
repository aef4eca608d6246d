/**
 * hooks-node's writeAuditLog on a real A3sClient (a Node SDK user's audit file): a hook server
 * on 127.0.0.1 with a token, the client's hook blocking, the file read back.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer, writeAuditLog } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { A3sClient } from "../src/index.js";

const TOKEN = "audit-log-token";
let server: HookServer | undefined;
let client: A3sClient | undefined;
let dir: string | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  client = server = dir = undefined;
});

describe("writeAuditLog on an A3sClient", () => {
  it("appends the client's own decisions to a JSON Lines file", async () => {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, auditLevel: "info" });
    dir = mkdtempSync(path.join(tmpdir(), "a3s-client-audit-"));
    const file = path.join(dir, "audit.jsonl");
    const log = writeAuditLog(client, file, { types: ["blocked"] });
    const { id } = client.registerHook("Stop", () => ({ action: "block", reason: "not done yet" }));
    await client.ready();
    const event = createEvent("Stop", { sessionId: "s1", stopHookActive: false });
    expect((await engine.fire(event)).action).toBe("block");
    log.close();
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        type: "blocked",
        hookId: id,
        event: "Stop",
        eventId: event.eventId,
        reason: "not done yet",
      }),
    ]);
    expect(log.written).toBe(1);
  });
});
