import { randomUUID } from "node:crypto";
import { createEvent, type HookEngine, HookError } from "@a3s-lab/hooks-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ListToolsResultSchema,
  McpError,
  type Notification,
  type Request,
  type RequestId,
  ResultSchema,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { checkForwardedRequest, forwardsNotification } from "./client-methods.js";
import { type CallUpstream, guardedToolCall, type ToolCallContext } from "./guarded-tool-call.js";
import { createPermissionStep, type PermissionOptions } from "./permission-flow.js";
import { childEnv, OutputTail, type ServerCommand, serverNameOf } from "./server-command.js";
import { ToolSchemas } from "./tool-schemas.js";

export interface McpHookProxyOptions {
  /** The engine every tool call goes through: TS hooks, settings-file hooks, remote hooks. */
  engine: HookEngine;
  /** The real MCP server, started as a child when the client initializes. */
  server: ServerCommand;
  /** When tool calls fire PermissionRequest, and the answer when no hook decides. */
  permission?: PermissionOptions;
  /** How often a PreToolUse `retry` is honoured before the call fails. Default 3. */
  maxRetries?: number;
  /** Receives the server's stderr as it comes. Default: the proxy's own stderr. */
  onServerStderr?: (chunk: Buffer) => void;
  /** Bytes of the server's latest stderr quoted in errors when it fails. Default 8192. */
  stderrTailBytes?: number;
  /**
   * How long the proxy waits for the server to answer one request (progress resets it).
   * Default: no limit of its own; the client's timeout and cancellation decide.
   */
  requestTimeoutMs?: number;
  /** How long the server has to start and answer `initialize`. Default 60 000 ms. */
  startTimeoutMs?: number;
}

/** How a proxy's session ended. */
export interface McpProxyExit {
  /** Set when the session could not run: the server never started, or SessionStart blocked it. */
  error?: HookError;
}

/** A running proxy: one client connection, one child server. */
export interface McpHookProxy extends AsyncDisposable {
  /** This connection's session id, as hooks see it in `sessionId`. */
  readonly sessionId: string;
  /** The server's name in tool names (`mcp__<serverName>__<tool>`). */
  readonly serverName: string;
  /** Serve the MCP client on this transport (`new StdioServerTransport()` for stdio). */
  connect(transport: Transport): Promise<void>;
  /** Settles once the client is gone (or the session could not start) and cleanup is done. */
  readonly closed: Promise<McpProxyExit>;
  /** End the session: SessionEnd, then the server is stopped. Idempotent. */
  close(): Promise<void>;
}

// Every capability the server might have, so the SDK lets each of its notifications through;
// the client is told the server's real ones in the initialize answer.
const ANY_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};
// Effectively no limit: the SDK's timer needs a number, and 2^31-1 ms is its largest.
const NO_TIMEOUT = 2_147_483_647;

function checkOptions(options: McpHookProxyOptions): void {
  const engine = options?.engine as unknown as Record<string, unknown> | undefined;
  if (typeof engine?.fire !== "function") {
    throw new HookError("INVALID_CONFIG", "engine: expected a HookEngine", { path: ["engine"] });
  }
  const command = options.server?.command;
  if (typeof command !== "string" || command.trim() === "") {
    throw new HookError("INVALID_CONFIG", "server.command: expected the MCP server's command", {
      path: ["server", "command"],
    });
  }
  for (const key of ["requestTimeoutMs", "startTimeoutMs", "stderrTailBytes"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value <= 0 || value > NO_TIMEOUT)) {
      throw new HookError("INVALID_CONFIG", `${key}: expected a positive integer`, {
        path: [key],
      });
    }
  }
}

/**
 * An MCP server that wraps a real one: it starts the server as a child, speaks MCP to the
 * client on the transport given to `connect`, and runs every `tools/call` through the tool
 * flow (PreToolUse, PermissionRequest when asked, the server, PostToolUse or
 * PostToolUseFailure) with tools named `mcp__<server>__<tool>`. SessionStart fires when the
 * client initializes, SessionEnd when it goes. The other requests and notifications the MCP
 * specification gives a client (resources, prompts, completions, logging, tasks, roots,
 * progress, cancellation) pass through after their shape is checked, as do the server's own
 * requests to the client; a request with any other method (`Tools/Call`, `tools/call `, a
 * custom one) is answered `MethodNotFound` and never forwarded, and any other notification
 * (`tools/call` without an id) is dropped.
 *
 * @example
 * ```ts
 * import { HookEngine, block } from "@a3s-lab/hooks-core";
 * import { createMcpHookProxy } from "@a3s-lab/hooks-mcp";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 *
 * const engine = new HookEngine();
 * engine.register({ event: "PreToolUse", matcher: "mcp__fs__write_file", handler: () => block("read-only") });
 * const proxy = createMcpHookProxy({ engine, server: { name: "fs", command: "mcp-server-filesystem", args: ["."] } });
 * await proxy.connect(new StdioServerTransport());
 * await proxy.closed;
 * ```
 */
export function createMcpHookProxy(options: McpHookProxyOptions): McpHookProxy {
  checkOptions(options);
  const { engine } = options;
  const serverName = serverNameOf(options.server);
  const sessionId = randomUUID();
  const tail = new OutputTail(options.stderrTailBytes ?? 8192);
  const onStderr = options.onServerStderr ?? ((chunk: Buffer) => void process.stderr.write(chunk));
  const timeout = options.requestTimeoutMs ?? NO_TIMEOUT;

  const server = new Server(
    { name: "a3s-hooks-mcp", version: "0" },
    { capabilities: ANY_CAPABILITIES },
  );
  // Logging levels are the real server's business, not a local setting.
  server.removeRequestHandler("logging/setLevel");

  let upstream: Client | undefined;
  let starting = false;
  let sessionStarted = false;
  /** Why the server cannot be reached any more; set once it exits. */
  let gone: string | undefined;
  let exit: McpProxyExit = {};
  /** The initialize request whose error answer ends the session once it is sent. */
  let closeAfter: RequestId | undefined;
  let cleanup: Promise<void> | undefined;
  let settle: (exit: McpProxyExit) => void = () => {};
  const closed = new Promise<McpProxyExit>((resolve) => {
    settle = resolve;
  });

  const withTail = (message: string) => {
    const text = tail.text();
    return text ? `${message}; its stderr ends with:\n${text}` : message;
  };

  const requireUpstream = (): Client => {
    if (upstream === undefined || gone !== undefined) {
      throw new McpError(ErrorCode.ConnectionClosed, gone ?? "the MCP server is not running");
    }
    return upstream;
  };

  /** Options for a request forwarded to the server: cancellation, progress, timeout. */
  const forwarding = (
    request: {
      params?: { _meta?: { progressToken?: string | number | undefined } | undefined } | undefined;
    },
    signal: AbortSignal,
    notify: (n: Notification) => Promise<void>,
  ): RequestOptions => {
    const token = request.params?._meta?.progressToken;
    return {
      signal,
      timeout,
      resetTimeoutOnProgress: true,
      ...(token !== undefined
        ? {
            // The SDK gives the forwarded request a token of its own; the client knows its own.
            onprogress: (progress) =>
              void notify({
                method: "notifications/progress",
                params: { ...progress, progressToken: token },
              }).catch(() => {}),
          }
        : {}),
    };
  };

  /** Explain a closed connection with what the server said before it went. */
  const explained = (error: unknown): unknown =>
    error instanceof McpError && error.code === ErrorCode.ConnectionClosed && gone !== undefined
      ? new McpError(ErrorCode.ConnectionClosed, gone)
      : error;

  const schemas = new ToolSchemas(async (signal) => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    // Bounded: a server that pages forever must not hold the call.
    for (let page = 0; page < 100; page++) {
      const result = await requireUpstream().request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
        { signal, timeout },
      );
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  });

  const callUpstream: CallUpstream = async (params, request) => {
    try {
      return await requireUpstream().request(
        { method: "tools/call", params },
        CallToolResultSchema,
        forwarding({ params }, request.signal, request.notify),
      );
    } catch (error) {
      throw explained(error);
    }
  };
  const toolContext: ToolCallContext = {
    engine,
    sessionId,
    serverName,
    permission: createPermissionStep(options.permission),
    schemas,
    maxRetries: options.maxRetries ?? 3,
    callUpstream,
  };

  async function startUpstream(params: InitializeRequest["params"]): Promise<Client> {
    const { tasks: _tasks, ...capabilities } = params.capabilities;
    const client = new Client(params.clientInfo, { capabilities });
    const transport = new StdioClientTransport({
      command: options.server.command,
      args: [...(options.server.args ?? [])],
      env: childEnv(options.server.env),
      ...(options.server.cwd !== undefined ? { cwd: options.server.cwd } : {}),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail.push(chunk);
      onStderr(chunk);
    });
    client.onclose = () => {
      gone ??= withTail("the MCP server exited");
    };
    client.fallbackNotificationHandler = async (notification) => {
      await server.notification(notification as Notification).catch(() => {});
    };
    client.fallbackRequestHandler = async (request, extra) => {
      return server.request(
        { method: request.method, params: request.params } as Request,
        ResultSchema,
        forwarding(request, extra.signal, (n) => extra.sendNotification(n as never)),
      );
    };
    try {
      await client.connect(transport, { timeout: options.startTimeoutMs ?? 60_000 });
    } catch (error) {
      await client.close().catch(() => {});
      const why = error instanceof Error ? error.message : String(error);
      throw new HookError(
        "UNAVAILABLE",
        withTail(`the MCP server (${options.server.command}) did not start: ${gone ?? why}`),
        { cause: error, details: { command: options.server.command } },
      );
    }
    return client;
  }

  server.setRequestHandler(
    InitializeRequestSchema,
    async (request, extra): Promise<InitializeResult> => {
      if (starting) throw new McpError(ErrorCode.InvalidRequest, "already initialized");
      starting = true;
      try {
        upstream = await startUpstream(request.params);
        const start = await engine.fire(
          createEvent("SessionStart", {
            sessionId,
            source: "startup",
            metadata: { client: request.params.clientInfo, server: serverName },
          }),
        );
        if (start.action === "block") {
          throw new HookError(
            "BLOCKED",
            `the session was blocked by a hook: ${start.reason ?? "blocked"}`,
          );
        }
        sessionStarted = true;
      } catch (error) {
        exit = { error: HookError.from(error) };
        closeAfter = extra.requestId;
        throw new McpError(ErrorCode.InternalError, exit.error!.message);
      }
      const { tasks: _tasks, ...capabilities } = upstream.getServerCapabilities() ?? {};
      const requested = request.params.protocolVersion;
      const instructions = upstream.getInstructions();
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
          ? requested
          : LATEST_PROTOCOL_VERSION,
        capabilities,
        serverInfo: upstream.getServerVersion() ?? { name: serverName, version: "0" },
        ...(instructions !== undefined ? { instructions } : {}),
      };
    },
  );

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    requireUpstream();
    if (request.params.task !== undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "task-augmented tool calls are not supported through the hook proxy",
      );
    }
    return guardedToolCall(toolContext, request.params, {
      requestId: extra.requestId,
      signal: extra.signal,
      notify: (n) => extra.sendNotification(n as never),
    });
  });

  server.fallbackRequestHandler = async (request, extra) => {
    checkForwardedRequest(request);
    try {
      const result = await requireUpstream().request(
        { method: request.method, params: request.params } as Request,
        ResultSchema,
        forwarding(request, extra.signal, (n) => extra.sendNotification(n as never)),
      );
      if (request.method === "tools/list" && Array.isArray(result.tools)) {
        schemas.learn(result.tools as Tool[]);
      }
      return result;
    } catch (error) {
      throw explained(error);
    }
  };
  server.fallbackNotificationHandler = async (notification) => {
    if (!forwardsNotification(notification)) return;
    await upstream?.notification(notification as Notification).catch(() => {});
  };

  const finish = (): Promise<void> => {
    cleanup ??= (async () => {
      try {
        if (sessionStarted) {
          await engine.fire(
            createEvent("SessionEnd", { sessionId, reason: exit.error ? "error" : "exit" }),
          );
        }
      } finally {
        await upstream?.close().catch(() => {});
        settle(exit);
      }
    })();
    return cleanup;
  };
  server.onclose = () => void finish();

  return {
    sessionId,
    serverName,
    closed,
    async connect(transport) {
      const send = transport.send.bind(transport);
      transport.send = async (message: JSONRPCMessage, sendOptions) => {
        await send(message, sendOptions);
        if (closeAfter !== undefined && "id" in message && message.id === closeAfter) {
          void server.close();
        }
      };
      await server.connect(transport);
    },
    async close() {
      await server.close();
      await finish();
    },
    async [Symbol.asyncDispose]() {
      await this.close();
    },
  };
}
