/**
 * An http hook's server may be hostile or broken: it drips bytes, never ends its body, answers
 * with a header flood. Each attack runs a bounded number of firings against a server on
 * 127.0.0.1 and stops by itself. A fail-closed policy hook must block every time: no hostile
 * answer turns into a continue, and none holds a firing past the hook's timeout.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { applyHookSettings } from "../../src/settings/apply-hook-settings.js";
import type { HookSettings } from "../../src/settings/hook-settings.js";
import { parseHooksBlock } from "../../src/settings/parse-hooks-block.js";

const FIRINGS = 20;
const servers: Server[] = [];
const timers = new Set<NodeJS.Timeout>();

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function hostile(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; open: () => number }> {
  let open = 0;
  const server = createServer((req, res) => {
    open++;
    res.on("close", () => open--);
    req.resume();
    req.on("end", () => answer(res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    open: () => open,
  };
}

/** A fail-closed http policy hook on PreToolUse, as a settings file would give it. */
function policyHook(url: string, timeout = 1): HookSettings {
  const { hooks, problems } = parseHooksBlock(
    { PreToolUse: [{ hooks: [{ type: "http", url, timeout, onFailure: "block" }] }] },
    { file: "attack.json", scope: "explicit", trusted: true, basePath: ["hooks"] },
  );
  expect(problems).toEqual([]);
  return { hooks, options: {}, optionSources: {}, problems: [], files: [] };
}

async function fireMany(settings: HookSettings): Promise<string[]> {
  const engine = new HookEngine();
  const handle = applyHookSettings(engine, settings);
  expect(handle.skipped).toEqual([]);
  const results = await Promise.all(
    Array.from({ length: FIRINGS }, (_, i) =>
      engine.fire(
        createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: `rm ${i}` } }),
      ),
    ),
  );
  handle.unregister();
  return results.map((r) => r.action);
}

async function allClosed(open: () => number): Promise<void> {
  while (open() > 0) await new Promise((r) => setTimeout(r, 20));
}

describe("a hostile http hook server", () => {
  it("dripping a byte at a time never holds a firing past the timeout, and every firing blocks", async () => {
    const srv = await hostile((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      const t = setInterval(() => res.write(" "), 50);
      timers.add(t);
      res.on("close", () => clearInterval(t));
    });
    expect(await fireMany(policyHook(srv.url))).toEqual(Array(FIRINGS).fill("block"));
    await allClosed(srv.open);
  });

  it("an endless body is read up to the cap, then dropped: a block, never a continue", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const srv = await hostile((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"decision":"approve","pad":"');
      const pump = () => {
        while (res.write(chunk)) {
          /* fill the socket */
        }
      };
      res.on("drain", pump);
      pump();
    });
    expect(await fireMany(policyHook(srv.url, 5))).toEqual(Array(FIRINGS).fill("block"));
    await allClosed(srv.open);
  });

  it("a header flood fails the request; the fail-closed hook blocks", async () => {
    const srv = await hostile((res) => {
      const headers: Record<string, string> = {};
      for (let i = 0; i < 2000; i++) headers[`x-flood-${i}`] = "y".repeat(64);
      res.writeHead(200, headers);
      res.end("");
    });
    expect(await fireMany(policyHook(srv.url, 5))).toEqual(Array(FIRINGS).fill("block"));
  });
});
