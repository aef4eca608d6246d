/**
 * Remote hooks end to end: a real hook server (the test host) and real A3sClients, each in a
 * process of its own, talking gRPC over 127.0.0.1. Sequencing is by messages (a client says
 * when it is ready, when a handler starts, when it is aborted), never by sleeping.
 *
 * The decisions a hook can make, across clients. One host serves the whole file; each test's
 * clients close (and so unregister their hooks) afterwards.
 */

import { createGrpcTransport } from "@a3s-lab/hooks-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bash, Harness, type Host } from "./fixtures/processes.js";

const run = new Harness();
let h: Host;

beforeAll(async () => {
  h = await run.host();
});
afterEach(async () => {
  await run.stop((c) => c !== h);
  // Every client closed cleanly, so the host is back to no hooks.
  expect((await h.list()).hooks).toEqual([]);
});
afterAll(() => run.stop());

describe("remote hooks over gRPC, host and clients in separate processes", () => {
  it("blocks, and only matching events cross the wire", async () => {
    const c = await run.client(h, [
      {
        event: "PreToolUse",
        matcher: { tool: "Bash" },
        behavior: { kind: "block", reason: "no shell" },
      },
    ]);
    const blocked = await h.fire("PreToolUse", bash("rm -rf /"));
    expect(blocked.action).toBe("block");
    expect(blocked.reason).toBe("no shell");
    const other = await h.fire("PreToolUse", {
      sessionId: "s1",
      tool: "Read",
      args: { path: "x" },
    });
    expect(other.action).toBe("continue");
    // No outcome at all: the agent matched and did not send the event.
    expect(other.outcomes).toEqual([]);
    await c.waitFor(() => c.invocations().length === 1);
  });

  it("modifies arguments, asks for a retry, and skips the hooks after it", async () => {
    await run.client(h, [
      {
        event: "PreToolUse",
        matcher: "Bash",
        behavior: { kind: "modify", patch: { args: { timeout: 30000 } } },
      },
      { event: "PermissionRequest", behavior: { kind: "retry", delay: 250 } },
      { event: "SubagentStart", config: { priority: 1 }, behavior: { kind: "skip" } },
      {
        event: "SubagentStart",
        config: { priority: 2 },
        behavior: { kind: "block", reason: "never seen" },
      },
    ]);
    const modified = await h.fire("PreToolUse", bash("ls"));
    expect(modified.action).toBe("continue");
    expect(modified.args).toEqual({ command: "ls", timeout: 30000 });

    const retried = await h.fire("PermissionRequest", { sessionId: "s1", tool: "Bash", args: {} });
    expect(retried.action).toBe("retry");
    expect(retried.retryDelay).toBe(250);

    const skipped = await h.fire("SubagentStart", {
      sessionId: "s1",
      subagentId: "a",
      subagentType: "explore",
      description: "look around",
    });
    expect(skipped.action).toBe("continue");
    expect(skipped.outcomes.map((o) => [o.action, o.ignored ?? false])).toEqual([
      ["skip", false],
      ["block", true],
    ]);
  });

  it("orders hooks by priority across clients, whatever the registration order", async () => {
    const late = await run.client(h, [
      {
        event: "PreToolUse",
        config: { priority: 10 },
        behavior: { kind: "modify", patch: { args: { who: "late" } } },
      },
    ]);
    const early = await run.client(h, [
      {
        event: "PreToolUse",
        config: { priority: -5 },
        behavior: { kind: "modify", patch: { args: { who: "early", early: true } } },
      },
    ]);
    const result = await h.fire("PreToolUse", bash("ls"));
    // Lower priority runs first; the later hook wins a field both wrote.
    expect(result.outcomes.map((o) => o.name)).toEqual([early.hookIds[0], late.hookIds[0]]);
    expect(result.args).toEqual({ command: "ls", who: "late", early: true });

    const blockers = await run.client(h, [
      { event: "Stop", config: { priority: 3 }, behavior: { kind: "block", reason: "second" } },
    ]);
    await run.client(h, [
      { event: "Stop", config: { priority: 1 }, behavior: { kind: "block", reason: "first" } },
    ]);
    const stop = await h.fire("Stop", { sessionId: "s1", stopHookActive: false });
    expect(stop.reason).toBe("first");
    expect(blockers.invocations()).toHaveLength(1);
  });

  it("runs a client's hooks for one event in parallel", async () => {
    // Each barrier hook waits until both are running: run one after the other, they would time out.
    await run.client(h, [
      { event: "PreToolUse", config: { timeout: 4000 }, behavior: { kind: "barrier", size: 2 } },
      { event: "PreToolUse", config: { timeout: 4000 }, behavior: { kind: "barrier", size: 2 } },
    ]);
    const result = await h.fire("PreToolUse", bash("ls"));
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
    expect(Object.keys(result.args as object)).toHaveLength(3);
  });

  it("times a slow hook out, tells the client, and aborts its handler", async () => {
    const c = await run.client(h, [
      { event: "PreToolUse", config: { timeout: 300 }, behavior: { kind: "hang" } },
      {
        event: "PreToolUse",
        config: { timeout: 300, failBehavior: "block", name: "strict" },
        behavior: { kind: "hang" },
      },
    ]);
    const aborted = c.next("aborted");
    const result = await h.fire("PreToolUse", bash("ls"));
    expect(result.outcomes.map((o) => o.status)).toEqual(["timeout", "timeout"]);
    // A fail-closed hook that times out blocks; a fail-open one lets the call go on.
    expect(result.action).toBe("block");
    expect(result.reason).toContain("strict");
    expect((await aborted).reason).toMatch(/no answer within 300 ms/);
  });

  it("applies the fail behaviour when a handler throws, without hurting the client", async () => {
    const c = await run.client(h, [
      { event: "PreToolUse", matcher: "Bash", behavior: { kind: "throw", message: "open" } },
      {
        event: "PreToolUse",
        matcher: "Write",
        config: { failBehavior: "block", name: "guard" },
        behavior: { kind: "throw", message: "closed" },
      },
    ]);
    const open = await h.fire("PreToolUse", bash("ls"));
    expect(open.action).toBe("continue");
    expect(open.outcomes[0]).toMatchObject({
      status: "failed",
      error: expect.stringContaining("open"),
    });
    const closed = await h.fire("PreToolUse", {
      sessionId: "s1",
      tool: "Write",
      args: { file_path: "a" },
    });
    expect(closed.action).toBe("block");
    expect(closed.reason).toContain("closed");
    // The client is still serving.
    expect((await h.fire("PreToolUse", bash("pwd"))).outcomes[0]?.status).toBe("failed");
    expect(c.messages.filter((m) => m.type === "error" && m.code === "HANDLER_FAILED").length).toBe(
      3,
    );
  });

  it("lets a client list and remove only its own hooks", async () => {
    const a = await run.client(h, [
      { event: "PreToolUse", id: "mine", behavior: { kind: "continue" } },
    ]);
    const b = await run.client(h, [
      { event: "PreToolUse", id: "theirs", behavior: { kind: "continue" } },
    ]);
    const listed = await a.request<{ id: string }[]>({ op: "list" });
    expect(listed.map((x) => x.id)).toEqual(["mine"]);
    // A3sClient only removes its own hooks; a hostile client using the protocol is refused.
    expect(await b.request({ op: "unregister", hookId: "mine" })).toBe(false);
    const intruder = createGrpcTransport({
      address: h.address,
      token: run.token,
      clientId: "intruder",
    });
    try {
      await intruder.openHookStream({ onEvent() {}, onClose() {} });
      // Another client's hook reads as one that does not exist.
      expect(await intruder.call("UnregisterHook", { hookId: "mine" })).toEqual({
        removed: false,
      });
    } finally {
      await intruder.close();
    }
    expect((await h.list()).hooks.map((x) => (x as { name?: string }).name).sort()).toEqual([
      "mine",
      "theirs",
    ]);
  });
});
