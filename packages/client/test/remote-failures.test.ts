/**
 * Remote hooks when things go wrong: wrong credentials, a client killed mid-event, a client
 * that never comes back, a server that restarts. Host and clients run in separate processes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { bash, Harness } from "./fixtures/processes.js";

const run = new Harness();
afterEach(() => run.stop());

describe("remote hooks across failures", () => {
  it("refuses a wrong token: the client fails for good and nothing is registered", async () => {
    const h = await run.host();
    const c = run.spawnClient({
      address: h.address,
      token: "wrong",
      hooks: [{ event: "PreToolUse", behavior: { kind: "block", reason: "x" } }],
    });
    await expect(c.ready()).rejects.toThrow(
      /UNAUTHENTICATED: authorization: the token is not valid/,
    );
    await c.waitFor((m) => m.type === "state" && m.state === "failed");
    expect((await h.list()).hooks).toEqual([]);
    expect((await h.fire("PreToolUse", bash("ls"))).action).toBe("continue");
  });

  it("answers at once when a client is killed mid-event, not after the timeout", async () => {
    const h = await run.host({ reconnectWindowMs: 60_000 });
    const c = await run.client(h, [
      {
        event: "PreToolUse",
        config: { timeout: 60_000, failBehavior: "block", name: "policy" },
        behavior: { kind: "hang" },
      },
      { event: "PostToolUse", config: { timeout: 60_000 }, behavior: { kind: "hang" } },
    ]);
    const invoked = c.next("invoked");
    const firing = h.fire("PreToolUse", bash("ls"));
    await invoked;
    await c.kill();
    const result = await firing;
    expect(result.action).toBe("block");
    expect(result.reason).toMatch(/policy.*disconnected/);
    expect(result.elapsedMs).toBeLessThan(30_000);
    // While it is away (inside its window) a fail-closed hook keeps blocking, at once…
    const away = await h.fire("PreToolUse", bash("ls"));
    expect(away.action).toBe("block");
    // …and a fail-open one lets the call go on.
    const post = await h.fire("PostToolUse", {
      ...bash("ls"),
      result: { success: true, output: "", duration: 1 },
    });
    expect(post.action).toBe("continue");
    expect(post.outcomes[0]?.error).toMatch(/UNAVAILABLE/);
    expect((await h.list()).hooks).toHaveLength(2);
  });

  it("removes a vanished client's hooks after the reconnect window, and the audit says so", async () => {
    const h = await run.host({ reconnectWindowMs: 200 });
    const c = await run.client(h, [{ event: "PreToolUse", behavior: { kind: "continue" } }]);
    await c.kill();
    const expired = await h.waitFor(
      (m) => m.type === "hub" && (m.event as { type: string }).type === "client_expired",
    );
    expect(expired.event).toMatchObject({ removedHooks: 1 });
    const unregistered = await h.waitFor(
      (m) => m.type === "audit" && (m.record as { type: string }).type === "unregistered",
    );
    expect((unregistered.record as { reason: string }).reason).toMatch(
      /did not reconnect within 200 ms/,
    );
    expect((await h.list()).hooks).toEqual([]);
  });

  it("reconnects to a restarted server and registers its hooks again", async () => {
    const first = await run.host();
    const c = await run.client(first, [
      { event: "PreToolUse", id: "guard", behavior: { kind: "block", reason: "still here" } },
    ]);
    const port = first.port;
    const reconnecting = c.next("state", (m) => m.state === "reconnecting");
    await first.kill();
    await reconnecting;
    const readyAgain = c.next("state", (m) => m.state === "ready");
    const second = await run.host({ port });
    await readyAgain;
    expect((await second.list()).hooks).toMatchObject([
      { name: "guard", source: `remote:${c.messages.find((m) => m.type === "ready")?.clientId}` },
    ]);
    expect((await second.fire("PreToolUse", bash("ls"))).reason).toBe("still here");
  });
});
