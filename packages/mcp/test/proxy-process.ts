import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { programArgs } from "../../../test-support/program-bundles.ts";

/**
 * `node` running the `a3s-hooks-mcp` bin, bundled from source once per run (test/programs.ts):
 * each proxy start no longer pays for tsx transpiling the bin and the packages it imports.
 */
export function proxyCommand(): [string, ...string[]] {
  return [process.execPath, ...programArgs("a3s-hooks-mcp")];
}
export const FILESYSTEM_SERVER = resolve(
  import.meta.dirname,
  "../node_modules/.bin/mcp-server-filesystem",
);
export const TINY_SERVER = ["node", resolve(import.meta.dirname, "fixtures/tiny-server.mjs")];

/** The proxy as an MCP client starts it: a child process, spoken to over stdio. */
export interface ProxyProcess {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the proxy wrote on stderr so far. */
  stderr(): string;
  /** Resolves when stderr has a line matching `pattern`, with the match. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
}

/** Start `a3s-hooks-mcp <proxyArgs> -- <server…>` without connecting a client yet. */
export function spawnProxy(
  proxyArgs: readonly string[],
  server: readonly string[],
  home: string,
  env: Record<string, string> = {},
) {
  const [command, ...bin] = proxyCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...bin, "--no-defaults", ...proxyArgs, "--", ...server],
    env: { PATH: process.env.PATH ?? "", HOME: home, ...env },
    cwd: home,
    stderr: "pipe",
  });
  let text = "";
  const waiters: (() => void)[] = [];
  const stream = transport.stderr as PassThrough;
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (const w of waiters.splice(0)) w();
  });
  const waitForStderr = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((done) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match) done(match);
        else waiters.push(check);
      };
      check();
    });
  return { transport, stderr: () => text, waitForStderr };
}

/** Start the proxy and connect the SDK's real client to it. */
export async function startProxy(
  proxyArgs: readonly string[],
  server: readonly string[],
  home: string,
  env: Record<string, string> = {},
): Promise<ProxyProcess> {
  const spawned = spawnProxy(proxyArgs, server, home, env);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(spawned.transport);
  return { client, ...spawned };
}

/** A scratch directory; `cleanup` removes it. */
export function scratch(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "a3s-mcp-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Write a Claude Code settings file with these hooks (and options of the hooks block). */
export function writeSettings(
  dir: string,
  name: string,
  hooks: Record<string, { matcher?: string; command: string; timeout?: number }[]>,
  options: Record<string, unknown> = {},
): string {
  const file = join(dir, name);
  const body = Object.fromEntries(
    Object.entries(hooks).map(([event, list]) => [
      event,
      list.map(({ matcher, command, timeout }) => ({
        ...(matcher !== undefined ? { matcher } : {}),
        hooks: [{ type: "command", command, ...(timeout !== undefined ? { timeout } : {}) }],
      })),
    ]),
  );
  writeFileSync(file, JSON.stringify({ hooks: { ...options, ...body } }));
  return file;
}
