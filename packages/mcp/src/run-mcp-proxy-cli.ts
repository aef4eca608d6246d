import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { parseArgs } from "node:util";
import { HookEngine, HookError } from "@a3s-lab/hooks-core";
import {
  applyHookSettings,
  createHookServer,
  engineOptionsFromSettings,
  formatProblem,
  type HookServer,
  loadHookSettings,
} from "@a3s-lab/hooks-node";
import { withoutHostSecrets } from "@a3s-lab/hooks-node/internal";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpHookProxy } from "./mcp-hook-proxy.js";

/** Where the proxy command reads and writes. stdin and stdout carry MCP; people read stderr. */
export interface McpProxyCliIo {
  /** MCP from the client. */
  stdin: Readable;
  /** MCP to the client: nothing else is ever written here. */
  stdout: Writable;
  /** Problems and notices, for people. */
  stderr: { write(text: string | Uint8Array): unknown };
  /** The directory `--cwd` defaults to. */
  cwd: string;
  /** The environment: `A3S_TOKEN` for `--serve-hooks`; the server gets it without the host's secrets. */
  env: Readonly<Record<string, string | undefined>>;
  /** The home directory (user settings, trust store). Default: the OS's. */
  home?: string;
  /** Ends the session when aborted (the bin aborts it on SIGINT and SIGTERM). */
  signal?: AbortSignal;
}

/** The text `a3s-hooks mcp-proxy --help` prints. */
export const MCP_PROXY_USAGE = `usage: a3s-hooks mcp-proxy [options] -- <server command> [args…]

Serve MCP on stdin/stdout, start the real MCP server as a child, and run every tools/call
through PreToolUse, PermissionRequest and PostToolUse hooks (tools are named
mcp__<name>__<tool>).

options:
  --settings <file>     a settings file, read first (repeatable)
  --cwd <dir>           the project directory (default: the current one)
  --no-defaults         read only the --settings files, not the default locations
  --name <name>         the server's name in tool names (default: the command's file name)
  --ask <matcher>       tools whose calls always fire PermissionRequest (mcp__fs__write_*)
  --permission <answer> allow or deny when no PermissionRequest hook decides (default deny)
  --serve-hooks <port>  host the hook server on 127.0.0.1:<port> (0: any free port), so
                        remote hooks (A3sClient, the browser page) govern the calls; the token
                        comes from A3S_TOKEN or is generated and printed on stderr
  --allow-origin <url>  with --serve-hooks: a web page origin (https://app.example.com) whose
                        page may connect to approve calls (repeatable; "*" is refused)
  -h, --help            show this help
`;

function usage(message: string): HookError {
  return new HookError("INVALID_CONFIG", `${message}\nhint: run "a3s-hooks mcp-proxy --help"`);
}

function parse(argv: readonly string[]) {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  let parsed: ReturnType<typeof parseOwn>;
  try {
    parsed = parseOwn(own, dash === -1);
  } catch (error) {
    throw usage((error as Error).message);
  }
  const command =
    dash === -1 ? parsed.positionals : [...parsed.positionals, ...argv.slice(dash + 1)];
  return { values: parsed.values, command };
}

function parseOwn(args: readonly string[], positionalsAllowed: boolean) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: positionalsAllowed,
    allowNegative: true,
    options: {
      settings: { type: "string", multiple: true, default: [] },
      cwd: { type: "string" },
      defaults: { type: "boolean", default: true },
      name: { type: "string" },
      ask: { type: "string" },
      permission: { type: "string" },
      "serve-hooks": { type: "string" },
      "allow-origin": { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h" },
    },
  });
}

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw usage(`--serve-hooks: expected a port number (0-65535), got ${JSON.stringify(text)}`);
  }
  return port;
}

/**
 * The `a3s-hooks mcp-proxy` command (also the `a3s-hooks-mcp` bin): load the settings files'
 * hooks into an engine, optionally host the hook server for remote hooks, then proxy MCP on
 * stdin/stdout until the client goes. Returns the exit code: 0 when the client closed the
 * session, 1 when the server never started (its stderr is shown) or the options are wrong.
 */
export async function runMcpProxyCli(argv: readonly string[], io: McpProxyCliIo): Promise<number> {
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  let server: HookServer | undefined;
  try {
    const { values, command } = parse(argv);
    if (values.help) {
      io.stderr.write(MCP_PROXY_USAGE);
      return 0;
    }
    if (typeof io.stdin?.once !== "function" || typeof io.stdout?.write !== "function") {
      throw new HookError(
        "INVALID_CONFIG",
        "io: stdin and stdout must be Node streams (MCP runs on them)",
      );
    }
    const [program, ...args] = command;
    if (program === undefined) throw usage("missing the MCP server's command after --");
    if (values.permission !== undefined && !["allow", "deny"].includes(values.permission)) {
      throw usage(`--permission: expected allow or deny, got ${JSON.stringify(values.permission)}`);
    }
    const origins = values["allow-origin"];
    if (origins.length > 0 && values["serve-hooks"] === undefined) {
      throw usage("--allow-origin: only with --serve-hooks");
    }
    for (const origin of origins) {
      // Any page on the web could then try tokens against the hook server.
      if (!/^https?:\/\/[^/*\s]+$/.test(origin)) {
        throw usage(
          `--allow-origin: expected an origin like https://app.example.com, got ${JSON.stringify(origin)}`,
        );
      }
    }
    const cwd = resolve(io.cwd, values.cwd ?? ".");
    const home = resolve(io.home ?? homedir());
    const settings = await loadHookSettings({
      cwd,
      home,
      files: values.settings,
      defaults: values.defaults,
    });
    const where = { cwd: settings.cwd ?? cwd, home };
    for (const p of settings.problems)
      log(`a3s-hooks mcp-proxy: ${p.severity}: ${formatProblem(p, where)}`);
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    const applied = applyHookSettings(engine, settings, { projectDir: where.cwd });
    for (const s of applied.skipped) {
      log(`a3s-hooks mcp-proxy: not run: ${s.hook.name}: ${s.message}`);
    }
    // A hook the user wrote but the engine cannot run would leave its tools unguarded; an MCP
    // client rarely shows stderr, so the proxy does not start rather than run without it.
    const broken =
      settings.problems.filter((p) => p.severity === "error").length +
      applied.skipped.filter((s) => s.reason === "invalid" || s.reason === "limit").length;
    if (broken > 0) {
      applied.unregister();
      throw new HookError(
        "INVALID_CONFIG",
        `refusing to start: ${broken} problem(s) in the hook settings above; fix them (a3s-hooks validate shows them)`,
      );
    }

    if (values["serve-hooks"] !== undefined) {
      const port = portOf(values["serve-hooks"]);
      let token = io.env.A3S_TOKEN;
      if (!token) {
        token = randomBytes(24).toString("hex");
        log(`token: ${token}`);
      }
      // Loopback only: the hook server decides what tools may do.
      server = await createHookServer({
        engine,
        host: "127.0.0.1",
        port,
        token,
        ...(origins.length > 0 ? { webSocket: { allowedOrigins: origins } } : {}),
      });
      log(`hooks: listening on ${server.address}`);
    }

    // The host's secrets stay with the proxy, as with every MCP server the hooks start: a
    // server holding the hook server's token could register hooks that allow or rewrite its
    // own calls, and the model keys pay for the hooks, not for the server.
    const serverEnv = withoutHostSecrets(io.env, "mcp-server");
    const proxy = createMcpHookProxy({
      engine,
      server: {
        command: program,
        args,
        env: serverEnv,
        cwd,
        ...(values.name !== undefined ? { name: values.name } : {}),
      },
      permission: {
        ...(values.ask !== undefined ? { ask: values.ask } : {}),
        ...(values.permission !== undefined
          ? { defaultAnswer: values.permission as "allow" | "deny" }
          : {}),
      },
      onServerStderr: (chunk) => void io.stderr.write(chunk),
    });
    log(`a3s-hooks mcp-proxy: tools are named mcp__${proxy.serverName}__<tool>`);
    await proxy.connect(new StdioServerTransport(io.stdin, io.stdout));
    // The SDK's transport does not notice the client closing our stdin; the session ends there.
    const hangUp = () => void proxy.close();
    io.stdin.once("end", hangUp).once("close", hangUp);
    io.signal?.addEventListener("abort", hangUp, { once: true });
    const exit = await proxy.closed;
    io.stdin.off("end", hangUp).off("close", hangUp);
    applied.unregister();
    if (exit.error) {
      log(`a3s-hooks mcp-proxy: ${exit.error.message}`);
      return 1;
    }
    return 0;
  } catch (error) {
    const e = HookError.from(error);
    log(`a3s-hooks mcp-proxy: ${e.message}`);
    return 1;
  } finally {
    await server?.close();
  }
}
