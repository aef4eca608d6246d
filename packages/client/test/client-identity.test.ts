/**
 * A client's hooks belong to that client. The host, the victim (a real A3sClient) and the
 * victim's connection run in processes of their own; the attacker is this test, holding the
 * token and the victim's client id (which it could read from an old block reason), and
 * speaking through the same gRPC transport any SDK user has.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { HookError } from "@a3s-lab/hooks-core";
import type { HookEventMessage, Transport } from "@a3s-lab/hooks-core/wire";
import { createGrpcTransport } from "@a3s-lab/hooks-node";
import { afterEach, describe, expect, it } from "vitest";
import { bash, Harness, type Host, type TestClient } from "./fixtures/processes.js";

const run = new Harness("identity-token");
const attackers: Transport[] = [];
const relays: { server: Server; cut(): void }[] = [];

afterEach(async () => {
  for (const t of attackers.splice(0)) await t.close();
  await run.stop();
  for (const r of relays.splice(0)) {
    r.cut();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

/** A loopback TCP relay to the host whose connections the test can cut, as a network blip would. */
async function relay(target: number): Promise<{ address: string; cut(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const upstream = connect(target, "127.0.0.1");
    for (const s of [inbound, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    inbound.pipe(upstream).pipe(inbound);
  });
  const cut = () => {
    for (const s of sockets) s.destroy();
  };
  relays.push({ server, cut });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { address: `127.0.0.1:${port}`, cut };
}

const VICTIM = "victim-ide";

/** The victim: a fail-closed guard on Bash, and an unnamed fail-closed hook on Write that never answers. */
async function victim(h: Host, address = h.address): Promise<TestClient> {
  return run.client(
    h,
    [
      {
        id: "guard",
        event: "PreToolUse",
        matcher: { tool: "Bash" },
        config: { failBehavior: "block", timeout: 10_000 },
        behavior: { kind: "block", reason: "victim says no" },
      },
      {
        id: "slow",
        event: "PreToolUse",
        matcher: { tool: "Write" },
        config: { failBehavior: "block", timeout: 300 },
        behavior: { kind: "hang" },
      },
    ],
    { clientId: VICTIM, address },
  );
}

function attacker(h: Host): Transport {
  const t = createGrpcTransport({ address: h.address, token: run.token, clientId: VICTIM });
  attackers.push(t);
  return t;
}

function connected(h: Host, resumed: boolean) {
  return h.next(
    "hub",
    (m) =>
      (m.event as { type: string; clientId: string; resumed: boolean }).type ===
        "client_connected" &&
      (m.event as { clientId: string }).clientId === VICTIM &&
      (m.event as { resumed: boolean }).resumed === resumed,
  );
}

describe("a token holder who knows another client's id", () => {
  it("does not learn client ids from block reasons", async () => {
    const h = await run.host();
    await victim(h);
    const result = await attacker(h).call("ExecuteTool", {
      sessionId: "s1",
      tool: "Write",
      args: { file_path: "/tmp/x", content: "x" },
    });
    expect(result.blocked).toBe(true);
    expect(result.reason).toMatch(/^hook slow timed out/);
    expect(result.reason).not.toContain(VICTIM);
  });

  it("cannot take over the victim's stream, so cannot answer its guard", async () => {
    const h = await run.host();
    await victim(h);
    const events: HookEventMessage[] = [];
    const thief = attacker(h);
    const opening = thief.openHookStream({
      onEvent: (event) => {
        events.push(event);
        stream?.send({
          hookId: event.hookId,
          eventId: event.eventId,
          action: "continue",
          permission: "allow",
        });
      },
      onClose: () => {},
    });
    let stream: Awaited<typeof opening> | undefined;
    await expect(
      opening.then((s) => {
        stream = s;
        return s;
      }),
    ).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const result = await thief.call("ExecuteTool", {
      sessionId: "s1",
      tool: "Bash",
      args: { command: "rm -rf /" },
    });
    expect(events).toEqual([]);
    expect(result).toMatchObject({ blocked: true, reason: "victim says no" });
    expect((await h.fire("PreToolUse", bash("ls"))).reason).toBe("victim says no");
  });

  it("cannot list, unregister or add hooks in the victim's name", async () => {
    const h = await run.host();
    await victim(h);
    const thief = attacker(h);
    await expect(thief.call("ListHooks", {})).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(thief.call("UnregisterHook", { hookId: "guard" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(
      thief.call("RegisterHook", { eventType: "PreToolUse", hookId: "planted" }),
    ).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await h.list()).hooks).toHaveLength(2);
    expect((await h.fire("PreToolUse", bash("ls"))).reason).toBe("victim says no");
  });

  it("is refused while the victim is away, and the victim's fail-closed guard still blocks", async () => {
    const h = await run.host({ reconnectWindowMs: 60_000 });
    const v = await victim(h);
    const gone = h.next("hub", (m) => (m.event as { type: string }).type === "client_disconnected");
    await v.kill();
    await gone;
    const thief = attacker(h);
    const error = await thief.openHookStream({ onEvent: () => {}, onClose: () => {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(HookError.is(error, "UNAUTHENTICATED")).toBe(true);
    const away = await h.fire("PreToolUse", bash("ls"));
    expect(away.action).toBe("block");
    expect(away.reason).not.toContain(VICTIM);
  });
});

describe("the legitimate client", () => {
  it("resumes its hooks after its own connection drops", async () => {
    const h = await run.host({ reconnectWindowMs: 60_000 });
    const link = await relay(h.port);
    const v = await victim(h, link.address);
    const resumed = connected(h, true);
    const reconnecting = v.next("state", (m) => m.state === "reconnecting");
    const readyAgain = v.next("state", (m) => m.state === "ready");
    link.cut();
    await reconnecting;
    await resumed;
    await readyAgain;
    expect((await h.list()).hooks).toHaveLength(2);
    expect((await h.fire("PreToolUse", bash("ls"))).reason).toBe("victim says no");
  });

  it("starts afresh after a server restart and is again the only one who can act for its id", async () => {
    const first = await run.host();
    const v = await victim(first);
    const port = first.port;
    const reconnecting = v.next("state", (m) => m.state === "reconnecting");
    await first.kill();
    await reconnecting;
    const readyAgain = v.next("state", (m) => m.state === "ready");
    const second = await run.host({ port });
    await readyAgain;
    expect((await second.list()).hooks).toHaveLength(2);
    expect((await second.fire("PreToolUse", bash("ls"))).reason).toBe("victim says no");
    await expect(attacker(second).call("ListHooks", {})).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });
});
