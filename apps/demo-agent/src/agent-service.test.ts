import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { A3sClient } from "@a3s-lab/box";
import { createHookServer, type HookServer } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { createAgentService } from "./agent-service.js";
import { defineDemoEvents } from "./demo-events.js";
import { WatchBudget } from "./watch-paths.js";

defineDemoEvents();

const token = "t".repeat(32);
let root: string;
let server: HookServer | undefined;
const clients: A3sClient[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-demo-service-")));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** The agent served on 127.0.0.1 by a real hook server, as `a3s-demo-agent serve` does. */
async function serve(agent: Agent, maxSessionsPerClient?: number) {
  server = await createHookServer({
    engine: agent.engine,
    token,
    port: 0,
    agent: createAgentService(agent, { workdir: root, maxSessionsPerClient }),
  });
  return server.address;
}

function client(address: string, clientId: string): A3sClient {
  const c = new A3sClient({ address, token, clientId });
  clients.push(c);
  return c;
}

describe("sessions per client", () => {
  it("one client cannot hold more than maxSessionsPerClient sessions; the others still get theirs", async () => {
    const agent = new Agent();
    const address = await serve(agent, 3);
    const greedy = client(address, "greedy");
    const mine = await Promise.all([1, 2, 3].map(() => greedy.createSession()));
    await expect(greedy.createSession()).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("maxSessionsPerClient"),
    });
    // Another client is served while the first holds its cap.
    const other = client(address, "bystander");
    expect(await other.createSession()).toEqual(expect.any(String));
    // Destroying one gives the place back.
    expect(await greedy.destroySession(mine[0]!)).toBe(true);
    expect(await greedy.createSession()).toEqual(expect.any(String));
    expect(agent.sessions).toHaveLength(4);
  });

  it("concurrent calls cannot pass the cap together", async () => {
    const agent = new Agent();
    const address = await serve(agent, 4);
    const greedy = client(address, "greedy");
    await greedy.ready();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () => greedy.createSession()),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "LIMIT_EXCEEDED" });
    }
    expect(await client(address, "bystander").createSession()).toEqual(expect.any(String));
  });
});

describe("watched files per client and in all", () => {
  /** `count` folders of `files` files each. */
  function folders(count: number, files: number): string[] {
    return Array.from({ length: count }, (_, i) => {
      const dir = path.join(root, `folder-${i}`);
      mkdirSync(dir);
      for (let f = 0; f < files; f++) writeFileSync(path.join(dir, `f${f}`), "x");
      return dir;
    });
  }

  it("a remote SessionStart hook's watchPaths are charged to the session's client, capped per client and in all", async () => {
    const budget = new WatchBudget({ perOwner: 50, total: 80 });
    const agent = new Agent({ watchBudget: budget });
    const address = await serve(agent);
    // Each folder costs 21 entries (itself and its 20 files).
    const watched = folders(8, 20);
    const hooks = client(address, "hooks");
    hooks.registerHook("SessionStart", {
      handler: () => ({ action: "continue", modified: { watchPaths: watched } }),
    });
    await hooks.ready();
    const greedy = client(address, "greedy");
    for (let i = 0; i < 4; i++) await greedy.createSession();
    expect(budget.used("greedy")).toBe(42);
    expect(budget.used("greedy")).toBeLessThanOrEqual(budget.perOwner);
    const other = client(address, "other");
    const theirs = await other.createSession();
    // 42 + 21 of the 80 in all: the third folder would pass the total.
    expect(budget.used("other")).toBe(21);
    expect(budget.used()).toBe(63);
    // Ending sessions gives their entries back.
    await other.destroySession(theirs);
    expect(budget.used("other")).toBe(0);
    for (const session of agent.sessions) await agent.endSession(session);
    expect(budget.used()).toBe(0);
  });

  it("by default, watchPaths of eight system folders stay within the per-client cap however many sessions ask", async () => {
    const budget = new WatchBudget();
    const agent = new Agent({ watchBudget: budget });
    const address = await serve(agent);
    const system = [
      "/etc",
      "/usr/bin",
      "/usr/lib",
      "/usr/share",
      "/usr/include",
      "/usr/sbin",
      "/var/lib",
      "/lib",
    ];
    const hooks = client(address, "hooks");
    hooks.registerHook("SessionStart", {
      handler: () => ({ action: "continue", modified: { watchPaths: system } }),
    });
    await hooks.ready();
    const greedy = client(address, "greedy");
    for (let i = 0; i < 4; i++) await greedy.createSession();
    expect(budget.used("greedy")).toBeGreaterThan(0);
    expect(budget.used("greedy")).toBeLessThanOrEqual(budget.perOwner);
    expect(budget.used()).toBeLessThanOrEqual(budget.total);
  }, 60_000);
});
