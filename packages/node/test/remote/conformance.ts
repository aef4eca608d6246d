/**
 * The conformance suite of the hook server: one list of scenarios, written against core's
 * `Transport` seam, run once per transport (gRPC, WebSocket) by conformance.test.ts. A
 * behaviour that differs between the two is a bug in one of them.
 */
import { networkInterfaces } from "node:os";
import { createEvent, HookEngine, HookError } from "@a3s-lab/hooks-core";
import type {
  HookEventMessage,
  HookStream,
  Transport,
  TransportOptions,
} from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import type { AgentService } from "../../src/hub/agent-service.js";
import type { HubEvent } from "../../src/hub/hub-events.js";
import { createHookServer, type HookServer } from "../../src/server/create-hook-server.js";
import { useHookServers } from "./hook-server-fixture.js";

/** How a scenario reaches the server: one client transport per kind. */
export interface TransportKit {
  name: string;
  /** How the transport spells fields in errors: the proto's names (gRPC) or JSON's (WebSocket). */
  fieldNames: "proto" | "json";
  /** A transport to `address` (the server's `host:port`) as `clientId`. */
  create(options: TransportOptions): Transport;
}

export const TOKEN = "conformance-token";

export function defineConformanceSuite(kit: TransportKit): void {
  const { serve, cleanup } = useHookServers(TOKEN);

  function transport(
    server: HookServer | string,
    clientId = "c1",
    token: string | null = TOKEN,
  ): Transport {
    const address = typeof server === "string" ? server : server.address;
    const t = kit.create({ address, clientId, ...(token ? { token } : {}) });
    cleanup.push(() => t.close());
    return t;
  }

  /** Open a hook stream that hands each firing to `answer`. */
  async function stream(t: Transport, answer: (event: HookEventMessage, s: HookStream) => void) {
    let onClose!: (error: HookError | undefined) => void;
    const closed = new Promise<HookError | undefined>((resolve) => (onClose = resolve));
    const s: HookStream = await t.openHookStream({
      onEvent: (event) => answer(event, s),
      onClose: (error) => onClose(error),
    });
    cleanup.push(() => s.close());
    return { stream: s, closed };
  }

  const bash = (command = "ls") =>
    createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

  describe("security", () => {
    it("needs a token, or an explicit insecure: true", async () => {
      const engine = new HookEngine();
      await expect(createHookServer({ engine, port: 0 })).rejects.toMatchObject({
        code: "INVALID_CONFIG",
        message:
          "options.token: a token is required; pass insecure: true to accept calls without one",
      });
      await expect(
        createHookServer({ engine, port: 0, token: "t", insecure: true }),
      ).rejects.toThrow("not both");
      const { server } = await serve({ insecure: true });
      const open = transport(server, "anyone", null);
      await stream(open, () => {});
      expect(await open.call("ListHooks", {})).toEqual({ hooks: [] });
    });

    it("listens on 127.0.0.1 only, unless told otherwise", async () => {
      const { server } = await serve();
      expect(server.host).toBe("127.0.0.1");
      expect(server.address).toBe(`127.0.0.1:${server.port}`);
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === "IPv4" && !i.internal);
      // On a machine with another interface, the server must not answer there.
      if (external) {
        // Plaintext to a non-loopback address needs the opt-in; nothing may answer there anyway.
        const outside = kit.create({
          address: `${external.address}:${server.port}`,
          clientId: "c1",
          token: TOKEN,
          allowPlaintextRemote: true,
        });
        cleanup.push(() => outside.close());
        await expect(outside.call("ListHooks", {})).rejects.toMatchObject({
          code: "UNAVAILABLE",
        });
      }
    });

    it("refuses a missing or wrong token, and registers nothing", async () => {
      const { engine, server } = await serve();
      for (const t of [transport(server, "c1", "wrong"), transport(server, "c1", null)]) {
        await expect(t.call("RegisterHook", { eventType: "PreToolUse" })).rejects.toMatchObject({
          code: "UNAUTHENTICATED",
        });
        await expect(t.openHookStream({ onEvent() {}, onClose() {} })).rejects.toMatchObject({
          code: "UNAUTHENTICATED",
        });
      }
      expect(engine.size()).toBe(0);
      expect(server.hub.clients()).toEqual([]);
    });

    it("lets a client see and remove only its own hooks", async () => {
      const { engine, server } = await serve();
      const owner = transport(server, "owner");
      const answered: string[] = [];
      await stream(owner, (event, s) => {
        answered.push(event.hookId);
        s.send({ hookId: event.hookId, eventId: event.eventId, action: "block", reason: "mine" });
      });
      await owner.call("RegisterHook", { eventType: "PreToolUse", hookId: "h" });
      const intruder = transport(server, "intruder");
      await stream(intruder, () => {});
      // Another client's hook reads as one that does not exist.
      expect(await intruder.call("UnregisterHook", { hookId: "h" })).toEqual({ removed: false });
      expect(await intruder.call("ListHooks", {})).toEqual({ hooks: [] });
      // Knowing the owner's id is not enough: without its secret, nothing is done in its name.
      const impostor = transport(server, "owner");
      await expect(impostor.openHookStream({ onEvent() {}, onClose() {} })).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
      await expect(impostor.call("ListHooks", {})).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
      });
      expect(engine.size()).toBe(1);
      expect((await engine.fire(bash())).reason).toBe("mine");
      expect(answered).toEqual(["h"]);
    });

    it("gives the stream a resume secret, and resumes only the client that presents it", async () => {
      const { server } = await serve();
      const first = transport(server, "resumer");
      const { stream: s } = await stream(first, () => {});
      await first.call("RegisterHook", { eventType: "Stop", hookId: "h" });
      expect(s.resumed).toBe(false);
      s.close();
      // The same transport presents its secret on its next stream: the server still holds the hooks.
      const { stream: again } = await stream(first, () => {});
      expect(again.resumed).toBe(true);
      expect((await first.call("ListHooks", {})).hooks.map((h) => h.hookId)).toEqual(["h"]);
    });
  });

  describe("hostile input", () => {
    it("answers an unknown event type and a bad matcher with an error naming the field as the client's wire spells it", async () => {
      const { engine, server } = await serve();
      const t = transport(server);
      await stream(t, () => {});
      const field = (json: string, proto: string) => (kit.fieldNames === "proto" ? proto : json);
      await expect(t.call("RegisterHook", { eventType: "Explode" })).rejects.toMatchObject({
        code: "UNKNOWN_EVENT",
        message: `RegisterHookRequest.${field("eventType", "event_type")}: unknown event name "Explode"`,
      });
      await expect(t.call("RegisterHook", { eventType: "PreToolUze" })).rejects.toMatchObject({
        code: "UNKNOWN_EVENT",
        message: `RegisterHookRequest.${field("eventType", "event_type")}: unknown event name "PreToolUze" (did you mean "PreToolUse"?)`,
      });
      await expect(t.call("ListHooks", { eventType: "Stpo" })).rejects.toMatchObject({
        code: "UNKNOWN_EVENT",
        message: `ListHooksRequest.${field("eventType", "event_type")}: unknown event name "Stpo" (did you mean "Stop"?)`,
      });
      const badPattern = t.call("RegisterHook", {
        eventType: "PreToolUse",
        matcher: { commandPattern: "([" },
      });
      await expect(badPattern).rejects.toMatchObject({
        code: "INVALID_PATTERN",
        message: expect.stringContaining(
          field("matcher.commandPattern", "matcher.command_pattern"),
        ),
      });
      await expect(
        t.call("RegisterHook", { eventType: "PreToolUse", hookId: "a b" }),
      ).rejects.toMatchObject({
        code: "INVALID_CONFIG",
        message: expect.stringMatching(
          new RegExp(`^RegisterHookRequest\\.${field("hookId", "hook_id")}: `),
        ),
      });
      expect(await t.call("UnregisterHook", { hookId: "nope" })).toEqual({ removed: false });
      expect(engine.size()).toBe(0);
    });

    it("fails a firing whose answer is too large, at once, without waiting for the timeout", async () => {
      const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
      const t = transport(server);
      const { closed } = await stream(t, (event, s) =>
        s.send({
          hookId: event.hookId,
          eventId: event.eventId,
          action: "block",
          reason: "x".repeat(200_000),
        }),
      );
      await t.call("RegisterHook", {
        eventType: "PreToolUse",
        config: { timeoutMs: 60_000, failBehavior: "block" },
      });
      const result = await engine.fire(bash());
      expect(result.action).toBe("block");
      expect(result.outcomes[0]?.error?.code).toBe("UNAVAILABLE");
      expect((await closed)?.code).toBe("LIMIT_EXCEEDED");
    });

    it("blocks, fail-open or not, an event that can block but is too large to show its hook; keeps the stream", async () => {
      // The caller chooses how large a tool's input is: a guard it cannot be shown must not
      // turn into a continue.
      const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
      const t = transport(server);
      await stream(t, (event, s) =>
        s.send({ hookId: event.hookId, eventId: event.eventId, action: "block", reason: "no" }),
      );
      await t.call("RegisterHook", { eventType: "PreToolUse", config: { name: "guard" } });
      const result = await engine.fire(bash("x".repeat(100_000)));
      expect(result.action).toBe("block");
      expect(result.reason).toContain("remote hook guard was not shown the event");
      expect(result.reason).toContain("the hook server sends at most 65536");
      expect((await engine.fire(bash())).reason).toBe("no");
    });

    it("fails, under its fail behaviour, a hook whose event cannot block and is too large", async () => {
      const { engine, server } = await serve({ maxMessageBytes: 64 * 1024 });
      const t = transport(server);
      await stream(t, (event, s) =>
        s.send({ hookId: event.hookId, eventId: event.eventId, action: "continue" }),
      );
      await t.call("RegisterHook", { eventType: "Notification" });
      const result = await engine.fire(
        createEvent("Notification", {
          sessionId: "s1",
          message: "x".repeat(100_000),
          notificationType: "status",
        }),
      );
      expect(result.action).toBe("continue");
      expect(result.outcomes[0]?.error).toMatchObject({ code: "LIMIT_EXCEEDED" });
    });

    it("throws away an answer nobody waits for, warns, and counts it", async () => {
      const { engine, server, warnings } = await serve();
      const t = transport(server);
      const { stream: s } = await stream(t, (event, st) =>
        st.send({ hookId: event.hookId, eventId: event.eventId, action: "continue" }),
      );
      await t.call("RegisterHook", { eventType: "PreToolUse", hookId: "h" });
      expect((await engine.fire(bash())).action).toBe("continue");
      const warned = new Promise<void>((resolve) =>
        server.on("warning", (w) => w.message.includes("no firing waits") && resolve()),
      );
      s.send({ hookId: "h", eventId: "made-up", action: "block", reason: "late" });
      await warned;
      expect(warnings.some((w) => w.includes("made-up"))).toBe(true);
      const { hooks } = await t.call("ListHooks", {});
      expect(hooks[0]?.counters).toMatchObject({ runs: 1, rejectedResponses: 1 });
    });
  });

  describe("streams", () => {
    it("tells a new client it was not resumed, and a returning one that it was", async () => {
      const { server } = await serve();
      const t = transport(server, "back");
      const first = await stream(t, () => {});
      expect(first.stream.resumed).toBe(false);
      await t.call("RegisterHook", { eventType: "Stop" });
      first.stream.close();
      expect(await first.closed).toBeUndefined();
      const second = await stream(t, () => {});
      expect(second.stream.resumed).toBe(true);
      expect((await t.call("ListHooks", {})).hooks).toHaveLength(1);
    });

    it("answers a disconnected client's fail-closed hook at once with a block", async () => {
      const { engine, server } = await serve();
      const t = transport(server, "leaver");
      const first = await stream(t, () => {});
      await t.call("RegisterHook", {
        eventType: "PreToolUse",
        config: { failBehavior: "block", timeoutMs: 60_000 },
      });
      const gone = new Promise((resolve) => server.on("client_disconnected", resolve));
      first.stream.close();
      await gone;
      const result = await engine.fire(bash());
      expect(result.action).toBe("block");
      expect(result.outcomes[0]?.error?.code).toBe("UNAVAILABLE");
    });

    it("cancels the client's wait when the agent aborts a firing", async () => {
      const { engine, server } = await serve();
      const t = transport(server);
      const seen: HookEventMessage[] = [];
      let sent!: () => void;
      const firstSent = new Promise<void>((resolve) => (sent = resolve));
      let cancel!: (event: HookEventMessage) => void;
      const cancelled = new Promise<HookEventMessage>((resolve) => (cancel = resolve));
      await stream(t, (event) => {
        seen.push(event);
        if (event.cancel) cancel(event);
        else sent();
      });
      await t.call("RegisterHook", { eventType: "PreToolUse", hookId: "h" });
      const controller = new AbortController();
      const firing = engine.fire(bash(), { signal: controller.signal });
      await firstSent;
      expect(seen[0]?.payload).toMatchObject({ tool: "Bash", args: { command: "ls" } });
      controller.abort(new HookError("ABORTED", "session ended"));
      await expect(firing).rejects.toMatchObject({ code: "ABORTED" });
      expect(await cancelled).toMatchObject({
        hookId: "h",
        eventId: seen[0]?.eventId,
        cancel: true,
      });
    });

    it("closes: ends open streams, takes remote hooks off the engine, frees the port", async () => {
      const engine = new HookEngine();
      engine.register({ event: "Stop", handler: () => undefined, id: "local" });
      const server = await createHookServer({ engine, port: 0, token: TOKEN });
      const t = transport(server);
      const { closed } = await stream(t, () => {});
      await t.call("RegisterHook", { eventType: "Stop" });
      const events: HubEvent[] = [];
      server.on("*", (e) => events.push(e));
      await server.close();
      await server.close();
      expect(engine.list().map((h) => h.id)).toEqual(["local"]);
      expect((await closed)?.code).toBe("UNAVAILABLE");
      await expect(t.call("ListHooks", {})).rejects.toMatchObject({ code: "UNAVAILABLE" });
      const again = await createHookServer({ engine, port: server.port, token: TOKEN });
      cleanup.push(() => again.close());
      expect(again.port).toBe(server.port);
    });
  });

  describe("AgentService", () => {
    function agent(
      overrides: Partial<AgentService> = {},
    ): AgentService & { aborted: Promise<unknown> } {
      let onAbort!: (reason: unknown) => void;
      const aborted = new Promise<unknown>((resolve) => (onAbort = resolve));
      return {
        aborted,
        createSession: ({ sessionId }, ctx) => ({
          sessionId: sessionId || `made-for-${ctx.clientId}`,
        }),
        destroySession: ({ sessionId }) => ({ destroyed: sessionId === "known" }),
        async *generate({ prompt }, ctx) {
          yield { progress: { kind: "text", text: "thinking", data: { step: 1 } } };
          if (prompt === "forever") {
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
            onAbort(ctx.signal.reason);
            return;
          }
          yield {
            result: {
              text: `echo ${prompt}`,
              usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
            },
          };
        },
        executeTool: ({ tool, args }) => {
          if (tool === "Missing") throw new HookError("NOT_FOUND", "no tool Missing");
          if (tool === "Broken") return { success: "yes" } as never;
          return { success: true, output: JSON.stringify(args), durationMs: 5 };
        },
        ...overrides,
      };
    }

    it("is not served unless the host gives an implementation", async () => {
      const { server } = await serve();
      await expect(transport(server).call("CreateSession", {})).rejects.toMatchObject({
        code: "UNAVAILABLE",
      });
    });

    it("serves sessions, tools and generation to authenticated callers", async () => {
      const { server } = await serve({ agent: agent() });
      const t = transport(server, "sdk");
      expect(await t.call("CreateSession", {})).toEqual({ sessionId: "made-for-sdk" });
      expect(await t.call("CreateSession", { sessionId: "chosen" })).toEqual({
        sessionId: "chosen",
      });
      expect(
        await t.call("ExecuteTool", { sessionId: "s", tool: "Echo", args: { a: [1, "two"] } }),
      ).toEqual({ success: true, output: '{"a":[1,"two"]}', durationMs: 5 });
      const events = [];
      for await (const e of t.generate({ sessionId: "s", prompt: "hi" })) events.push(e);
      expect(events).toEqual([
        { progress: { kind: "text", text: "thinking", data: { step: 1 } } },
        {
          result: {
            text: "echo hi",
            usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
          },
        },
      ]);
      expect(await t.call("DestroySession", { sessionId: "known" })).toEqual({ destroyed: true });
      expect(await t.call("DestroySession", { sessionId: "other" })).toEqual({
        destroyed: false,
      });
      await expect(
        transport(server, "sdk", "wrong").call("CreateSession", {}),
      ).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    });

    it("passes the host's errors on with their code, and hides a broken answer behind INTERNAL", async () => {
      const { server } = await serve({ agent: agent() });
      const t = transport(server);
      await expect(
        t.call("ExecuteTool", { sessionId: "s", tool: "Missing", args: {} }),
      ).rejects.toMatchObject({ code: "NOT_FOUND", message: "no tool Missing" });
      await expect(
        t.call("ExecuteTool", { sessionId: "s", tool: "Broken", args: {} }),
      ).rejects.toMatchObject({
        code: "INTERNAL",
        message: expect.stringContaining("the agent returned an invalid ExecuteToolResponse"),
      });
      await expect(
        t.call("ExecuteTool", { sessionId: "s", tool: "", args: {} }),
      ).rejects.toMatchObject({
        code: "INVALID_EVENT",
        message: expect.stringContaining("ExecuteToolRequest.tool"),
      });
    });

    it("ends Generate after the result, and fails one that ends without a result with INTERNAL", async () => {
      let returned = false;
      const { server } = await serve({
        agent: agent({
          async *generate({ prompt }) {
            yield { progress: { kind: "text", text: "thinking" } };
            if (prompt === "no result") return;
            try {
              yield { result: { text: "done" } };
              yield { progress: { kind: "text", text: "after the result" } };
              yield { result: { text: "a second result" } };
            } finally {
              returned = true;
            }
          },
        }),
      });
      const t = transport(server);
      const events: unknown[] = [];
      for await (const e of t.generate({ sessionId: "s", prompt: "twice" })) events.push(e);
      expect(events).toEqual([
        { progress: { kind: "text", text: "thinking" } },
        { result: { text: "done" } },
      ]);
      expect(returned).toBe(true);
      const seen: unknown[] = [];
      const iterate = (async () => {
        for await (const e of t.generate({ sessionId: "s", prompt: "no result" })) seen.push(e);
      })();
      await expect(iterate).rejects.toMatchObject({
        code: "INTERNAL",
        message: expect.stringContaining("the agent's generate ended without a result"),
      });
      expect(seen).toEqual([{ progress: { kind: "text", text: "thinking" } }]);
    });

    it("aborts the host's generation when the caller cancels", async () => {
      const impl = agent();
      const { server } = await serve({ agent: impl });
      const controller = new AbortController();
      const seen: unknown[] = [];
      const iterate = (async () => {
        for await (const e of transport(server).generate(
          { sessionId: "s", prompt: "forever" },
          { signal: controller.signal },
        )) {
          seen.push(e);
          controller.abort();
        }
      })();
      await expect(iterate).rejects.toMatchObject({ code: "ABORTED" });
      expect(seen).toHaveLength(1);
      expect(await impl.aborted).toMatchObject({
        code: "ABORTED",
        message: "the caller cancelled",
      });
    });
  });
}
