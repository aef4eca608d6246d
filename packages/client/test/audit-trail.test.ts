/**
 * The AuditTrail (hooks-browser's, exported by box) on a real A3sClient: a hook server on 127.0.0.1 (port 0, a token),
 * the client connected to it over gRPC (Node's default) and over WebSocket (a page's), and
 * the agent's engine firing events the client's hooks answer.
 */

import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import {
  A3sClient,
  AuditTrail,
  createWebSocketTransport,
  formatAuditRecord,
} from "../src/index.js";

const TOKEN = "audit-trail-token";
let server: HookServer | undefined;
let client: A3sClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

describe.each([
  ["gRPC", {}],
  ["WebSocket", { transport: createWebSocketTransport }],
] as const)("AuditTrail on an A3sClient over %s", (_name, transport) => {
  it("keeps the client's registered and blocked records", async () => {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN, ...transport });
    client.setHookAuditLevel("info");
    const trail = new AuditTrail(client);

    const { id } = client.registerHook("PreToolUse", {
      matcher: { tool: "Bash" },
      handler: (event) =>
        String(event.args.command).startsWith("rm")
          ? { action: "block", reason: "rm is not allowed" }
          : undefined,
    });
    await client.ready();
    const event = bash("rm -rf /");
    const result = await engine.fire(event);
    expect(result).toMatchObject({ action: "block", reason: "rm is not allowed" });
    // An allowed command is a run, not a decision: nothing at the info level.
    expect((await engine.fire(bash("ls"))).action).toBe("continue");

    expect(trail.records).toMatchObject([
      { type: "registered", hookId: id, event: "PreToolUse", source: `remote:${client.clientId}` },
      {
        type: "blocked",
        hookId: id,
        event: "PreToolUse",
        eventId: event.eventId,
        reason: "rm is not allowed",
      },
    ]);
    expect(formatAuditRecord(trail.records[1]!)).toBe(
      `blocked PreToolUse (hook ${id}): rm is not allowed`,
    );

    // Closed, the trail no longer hears the client.
    trail.close();
    await engine.fire(bash("rm again"));
    expect(trail.records).toHaveLength(2);
  });
});

describe("AuditTrail on an A3sClient whose audit level is off (the default)", () => {
  it("keeps nothing until the level is raised", async () => {
    const engine = new HookEngine();
    server = await createHookServer({ engine, port: 0, token: TOKEN });
    client = new A3sClient({ address: server.address, token: TOKEN });
    const trail = new AuditTrail(client, { types: ["blocked"] });
    client.registerHook("Stop", () => ({ action: "block", reason: "keep going" }));
    await client.ready();
    const stop = () => createEvent("Stop", { sessionId: "s1", stopHookActive: false });
    await engine.fire(stop());
    expect(trail.records).toEqual([]);
    client.setHookAuditLevel("info");
    await engine.fire(stop());
    expect(trail.records.map((r) => r.type)).toEqual(["blocked"]);
  });
});
