import { HookError } from "@a3s-lab/hooks-core";
import { raceAbort } from "@a3s-lab/hooks-core/internal";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { withoutHostSecrets } from "../../support/host-secrets.js";
import type { McpServerConfig, McpServerEntry } from "./mcp-server-config.js";
import type { McpServerPool, McpToolCallResult } from "./mcp-tool-hook.js";

/** The optional peer `mcp_tool` hooks need; loaded only when one runs. */
export const MCP_SDK_PACKAGE = "@modelcontextprotocol/sdk";

/** Restarts of one server after it exits, per pool; past them it stays down until a reload. */
export const DEFAULT_MCP_MAX_RESTARTS = 3;
/** The tail of a server's stderr kept for failure messages. */
export const DEFAULT_MCP_STDERR_BYTES = 8 * 1024;
/** The largest JSON-RPC message a stdio server may send; past it the server is stopped. */
export const DEFAULT_MCP_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** How long starting a server (spawn and MCP handshake) may take. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

/** Options of `createMcpServerPool`. */
export interface McpServerPoolOptions {
  /**
   * The environment stdio servers inherit (without the host's secrets: see `HOST_SECRET_VARIABLES`).
   * Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The working directory of stdio servers: the project directory. Default `process.cwd()`. */
  cwd?: string;
  /** Default 3. */
  maxRestarts?: number;
  /** Default 8 KiB. */
  maxStderrBytes?: number;
  /** Default 4 MiB. */
  maxMessageBytes?: number;
  /** Default 30 s. */
  connectTimeoutMs?: number;
  /** The dynamic `import()`, replaceable in tests. */
  importModule?: (specifier: string) => Promise<unknown>;
}

interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** The message for a host without the SDK: which package to install. */
export const MCP_SDK_MISSING = `mcp_tool hooks need ${MCP_SDK_PACKAGE}, which is not installed (npm install ${MCP_SDK_PACKAGE})`;

/**
 * Load the MCP SDK. Throws `UNAVAILABLE` naming the package when it is not installed.
 * The specifiers are variables so that bundlers leave the optional peer out.
 */
export async function loadMcpSdk(
  importModule: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<McpSdk> {
  const base: string = MCP_SDK_PACKAGE;
  try {
    const [client, stdio, http] = (await Promise.all([
      importModule(`${base}/client/index.js`),
      importModule(`${base}/client/stdio.js`),
      importModule(`${base}/client/streamableHttp.js`),
    ])) as [
      Pick<McpSdk, "Client">,
      Pick<McpSdk, "StdioClientTransport">,
      Pick<McpSdk, "StreamableHTTPClientTransport">,
    ];
    return {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    };
  } catch (error) {
    if (isMissingModule(error))
      throw new HookError("UNAVAILABLE", MCP_SDK_MISSING, { cause: error });
    throw error;
  }
}

/**
 * The environment a stdio server gets: the host's without its secrets (`HOST_SECRET_VARIABLES`,
 * with the exception written there: `OPENAI_API_KEY` when it is not the hooks' model key), plus
 * its own `env`.
 */
export function mcpServerEnv(
  inherited: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...withoutHostSecrets(inherited, "mcp-server"), ...own };
}

/** The last `max` bytes of a stream, as text. */
class Tail {
  #text = "";
  constructor(readonly max: number) {}
  push(chunk: Buffer | string): void {
    this.#text += chunk.toString();
    if (this.#text.length > this.max) this.#text = this.#text.slice(-this.max);
  }
  /** The last line with text in it, for one-line messages. */
  lastLine(): string {
    const lines = this.#text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const line = lines.at(-1) ?? "";
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
  get text(): string {
    return this.#text;
  }
}

class ServerSlot {
  client: Client | undefined;
  connecting: Promise<Client> | undefined;
  starts = 0;
  stderr: Tail;
  constructor(
    readonly server: McpServerEntry,
    maxStderrBytes: number,
  ) {
    this.stderr = new Tail(maxStderrBytes);
  }
  /** `; stderr: …` when the server said something there. */
  stderrNote(): string {
    const line = this.stderr.lastLine();
    return line ? `; its stderr ends with: ${line}` : "";
  }
}

function abortError(signal: AbortSignal): HookError {
  return HookError.is(signal.reason)
    ? signal.reason
    : new HookError("ABORTED", "the hook was cancelled; the tool call was cancelled", {
        cause: signal.reason,
      });
}

/**
 * The MCP servers of some settings, for `mcp_tool` hooks. Nothing starts until a hook calls a
 * tool; a server then stays up for later calls. A server that exits is started again on the
 * next call, at most `maxRestarts` times. Only trusted servers are in the pool: an untrusted
 * project's `.mcp.json` never starts a process.
 *
 * @example
 * ```ts
 * await using servers = createMcpServerPool(settings.mcpServers ?? [], { cwd });
 * ```
 */
export function createMcpServerPool(
  servers: readonly McpServerEntry[],
  options: McpServerPoolOptions = {},
): McpServerPool {
  const maxRestarts = options.maxRestarts ?? DEFAULT_MCP_MAX_RESTARTS;
  const maxStderrBytes = options.maxStderrBytes ?? DEFAULT_MCP_STDERR_BYTES;
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MCP_MAX_MESSAGE_BYTES;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
  const slots = new Map<string, ServerSlot>();
  for (const server of servers) {
    if (server.trusted && !slots.has(server.name))
      slots.set(server.name, new ServerSlot(server, maxStderrBytes));
  }
  let sdk: Promise<McpSdk> | undefined;
  let closed = false;

  const transportFor = (lib: McpSdk, slot: ServerSlot, config: McpServerConfig): Transport => {
    if (config.type === "http") {
      return new lib.StreamableHTTPClientTransport(new URL(config.url), {
        // A redirect could carry the headers (credentials, often) to another origin.
        requestInit: { headers: config.headers, redirect: "error" },
      });
    }
    const transport = new lib.StdioClientTransport({
      command: config.command,
      args: config.args,
      env: mcpServerEnv(options.env ?? process.env, config.env),
      cwd: options.cwd ?? process.cwd(),
      stderr: "pipe",
      maxBufferSize: maxMessageBytes,
    });
    transport.stderr?.on("data", (chunk: Buffer) => slot.stderr.push(chunk));
    return transport;
  };

  const start = async (slot: ServerSlot): Promise<Client> => {
    const { name } = slot.server;
    if (slot.starts > maxRestarts) {
      throw new HookError(
        "UNAVAILABLE",
        `MCP server "${name}" exited ${slot.starts} times; it is not started again until the settings are reloaded${slot.stderrNote()}`,
      );
    }
    slot.starts++;
    sdk ??= loadMcpSdk(options.importModule);
    let lib: McpSdk;
    try {
      lib = await sdk;
    } catch (error) {
      sdk = undefined;
      throw error;
    }
    const client = new lib.Client({ name: "a3s-hooks", version: "1.0.0" });
    const transport = transportFor(lib, slot, slot.server.config);
    client.onclose = () => {
      if (slot.client === client) slot.client = undefined;
    };
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => {});
      throw new HookError(
        "UNAVAILABLE",
        `could not start MCP server "${name}": ${(error as Error).message}${slot.stderrNote()}`,
        { cause: error },
      );
    }
    if (closed) {
      await client.close().catch(() => {});
      throw new HookError(
        "UNAVAILABLE",
        "the MCP servers were closed (the settings were disposed)",
      );
    }
    slot.client = client;
    return client;
  };

  const connect = (slot: ServerSlot): Promise<Client> => {
    if (slot.client) return Promise.resolve(slot.client);
    slot.connecting ??= start(slot).finally(() => {
      slot.connecting = undefined;
    });
    return slot.connecting;
  };

  const pool: McpServerPool = {
    has: (server) => slots.has(server),
    async callTool(server, tool, args, { signal }): Promise<McpToolCallResult> {
      if (closed) {
        throw new HookError(
          "UNAVAILABLE",
          "the MCP servers were closed (the settings were disposed)",
        );
      }
      const slot = slots.get(server);
      if (!slot) {
        throw new HookError("UNAVAILABLE", `no MCP server named "${server}" is configured`);
      }
      const client = await raceAbort(connect(slot), signal, abortError);
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          // The hook's own timeout aborts `signal`; the SDK's default (60 s) must not cut in first.
          timeout: 2_147_483_647,
        })) as McpToolCallResult;
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        if (slot.client !== client) {
          throw new HookError(
            "UNAVAILABLE",
            `MCP server "${server}" exited during the call to "${tool}"${slot.stderrNote()}`,
            { cause: error },
          );
        }
        throw new HookError(
          "HANDLER_FAILED",
          `MCP server "${server}" refused the call to "${tool}": ${(error as Error).message}`,
          { cause: error },
        );
      }
    },
    async close() {
      closed = true;
      const clients = [...slots.values()].flatMap((s) => {
        const c = s.client;
        s.client = undefined;
        return c ? [c] : [];
      });
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    },
    [Symbol.asyncDispose]: () => pool.close(),
  };
  return pool;
}
