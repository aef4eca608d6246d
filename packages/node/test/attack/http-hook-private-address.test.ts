/**
 * A settings file points fail-closed http hooks at addresses that are not loopback but land on
 * this machine anyway (0.0.0.0, `::`, their other spellings), where a server on 127.0.0.1 is
 * listening and would approve everything. The guard must refuse each before connecting: every
 * firing blocks and the server never hears a request. Only an allowedHttpHookUrls entry that
 * names the host, from a user or explicit file (never a project's own), lets the hook through.
 * Nothing but this machine is ever contacted, whatever the guard does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyHookSettings } from "../../src/settings/apply-hook-settings.js";
import type { HookSettings } from "../../src/settings/hook-settings.js";
import { loadHookSettings } from "../../src/settings/load-hook-settings.js";
import { parseHooksBlock } from "../../src/settings/parse-hooks-block.js";
import { trustProject } from "../../src/settings/project-trust.js";

const FIRINGS = 10;
let server: Server;
let port: number;
let heard: number;
let root: string;

beforeEach(async () => {
  heard = 0;
  server = createServer((req, res) => {
    heard++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ decision: "approve" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  root = mkdtempSync(join(tmpdir(), "a3s-private-"));
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

/** Fail-closed http hooks on PreToolUse, as an explicit settings file would give them. */
function policyHooks(urls: string[], allowedUrls?: string[]): HookSettings {
  const { hooks, problems } = parseHooksBlock(
    {
      PreToolUse: [
        { hooks: urls.map((url) => ({ type: "http", url, timeout: 2, onFailure: "block" })) },
      ],
    },
    { file: "attack.json", scope: "explicit", trusted: true, basePath: ["hooks"] },
  );
  expect(problems).toEqual([]);
  return {
    hooks,
    options: {},
    optionSources: {},
    problems: [],
    files: [],
    ...(allowedUrls ? { httpHookPolicy: { allowedUrls } } : {}),
  };
}

async function fireMany(settings: HookSettings): Promise<string[]> {
  const engine = new HookEngine();
  using handle = applyHookSettings(engine, settings);
  expect(handle.skipped).toEqual([]);
  const results = await Promise.all(
    Array.from({ length: FIRINGS }, (_, i) =>
      engine.fire(
        createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: `rm ${i}` } }),
      ),
    ),
  );
  return results.map((r) => r.action);
}

const thisMachine = () => [
  `http://0.0.0.0:${port}/hook`,
  `http://0:${port}/hook`,
  `http://0x0.0.0.0:${port}/hook`,
  `http://[::]:${port}/hook`,
  `http://[::ffff:0.0.0.0]:${port}/hook`,
];

describe("http hooks aimed at this machine by a non-loopback address", () => {
  it("each spelling is refused before connecting: every firing blocks, the server hears nothing", async () => {
    for (const url of thisMachine()) {
      expect(await fireMany(policyHooks([url]))).toEqual(Array(FIRINGS).fill("block"));
    }
    expect(heard).toBe(0);
  });

  it("an allow-list pattern with * in its host lets the URL pass but not the address", async () => {
    const settings = policyHooks([`http://0.0.0.0:${port}/hook`], ["http://*"]);
    expect(await fireMany(settings)).toEqual(Array(FIRINGS).fill("block"));
    expect(heard).toBe(0);
  });

  it("an allowedHttpHookUrls entry naming the host lets the hook reach it", async () => {
    const url = `http://0.0.0.0:${port}/hook`;
    const settings = policyHooks([url], [`http://0.0.0.0:${port}/*`]);
    expect(await fireMany(settings)).toEqual(Array(FIRINGS).fill("continue"));
    expect(heard).toBe(FIRINGS);
  });

  it("a trusted project naming the host in its own allowedHttpHookUrls does not unlock it", async () => {
    const cwd = join(root, "repo");
    const home = join(root, "home");
    const file = join(cwd, ".claude", "settings.json");
    mkdirSync(dirname(file), { recursive: true });
    mkdirSync(home, { recursive: true });
    const url = `http://0.0.0.0:${port}/hook`;
    writeFileSync(
      file,
      JSON.stringify({
        allowedHttpHookUrls: [`http://0.0.0.0:${port}/*`],
        hooks: {
          PreToolUse: [{ hooks: [{ type: "http", url, timeout: 2, onFailure: "block" }] }],
        },
      }),
    );
    await trustProject({ cwd, home });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(settings.httpHookPolicy).toBeUndefined();
    expect(await fireMany(settings)).toEqual(Array(FIRINGS).fill("block"));
    expect(heard).toBe(0);
  });
});
