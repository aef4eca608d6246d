/**
 * A remote hook defers a tool call over a real hook server's gRPC and WebSocket endpoints: the
 * merged result parks the call with the hook's reason and routing, and a malformed routing is
 * the hook's failure, naming the field.
 */
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { useHookServers } from "./hook-server-fixture.js";
import { rawGrpcHook, rawWsHook } from "./raw-hook-clients.js";

const TOKEN = "defer-token";
const { serve, cleanup } = useHookServers(TOKEN);
const options = (clientId: string) =>
  ({ token: TOKEN, clientId, cleanup, tool: "Bash", failBehavior: "continue" }) as const;

type Routing = Record<string, unknown>;
/** Connects a raw client whose hook answers `defer` with `reason` and `routing`. */
type Connect = (
  server: { address: string; webSocketUrl?: string | undefined },
  reason: string,
  routing: Routing,
) => Promise<void>;

const grpc: Connect = (server, reason, routing) =>
  rawGrpcHook(server.address, options("grpc"), (eventId) => ({
    hookId: "h",
    eventId,
    action: "DEFER",
    reason,
    routing,
  }));

const ws: Connect = (server, reason, routing) =>
  rawWsHook(server.webSocketUrl!, options("ws"), (eventId) =>
    JSON.stringify({
      type: "HookResponse",
      hookId: "h",
      eventId,
      action: "defer",
      reason,
      routing,
    }),
  );

const push = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "git push" } });

describe.each([
  ["gRPC", grpc],
  ["WebSocket", ws],
] as const)("a remote defer over %s", (_name, connect) => {
  it("parks the call: the merged result is deferred, with the hook's reason and routing", async () => {
    const engine = new HookEngine();
    const { server } = await serve({ engine });
    const routing = { deciders: ["alice", "bob"], deadline: "30m", onDeadline: "allow" };
    await connect(server, "pushing needs a person", routing);
    const result = await engine.fire(push());
    expect(result.outcomes[0]).toMatchObject({ status: "ok" });
    expect(result.stopTurn).toEqual({
      hookId: expect.any(String),
      reason: "pushing needs a person",
      deferred: true,
      routing,
    });
  });

  it("refuses a malformed routing: the hook's failure, naming the field", async () => {
    const engine = new HookEngine();
    const { server } = await serve({ engine });
    await connect(server, "later", { deadline: "tomorrow" });
    const result = await engine.fire(push());
    expect(result.stopTurn).toBeUndefined();
    expect(result.action).toBe("continue");
    expect(result.outcomes[0]).toMatchObject({ status: "failed" });
    expect(result.outcomes[0]!.error!.message).toMatch(/routing\.deadline/);
  });
});
