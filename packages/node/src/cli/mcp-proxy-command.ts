import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliIo } from "./cli-context.js";
import { CliError } from "./cli-error.js";

/**
 * The package that implements `a3s-hooks mcp-proxy`. It is an optional install: it brings the
 * MCP SDK, which users of the other commands should not have to carry, and it depends on this
 * package, so this one may not depend on it.
 */
export const MCP_PACKAGE = "@a3s-lab/hooks-mcp";

/** What `mcp-proxy` needs from the package. */
export interface McpProxyPackage {
  runMcpProxyCli(argv: readonly string[], io: unknown): Promise<number>;
}

/** True when `error` says `specifier` itself is missing (not one of its own imports). */
function isMissing(error: unknown, specifier: string): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return (
    (e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "MODULE_NOT_FOUND") &&
    typeof e.message === "string" &&
    (e.message.includes(MCP_PACKAGE) || e.message.includes(specifier))
  );
}

/**
 * Load the package from beside this one, else from the project the command runs in.
 * `importModule` is the dynamic `import()`, replaceable in tests.
 */
export async function loadMcpPackage(
  cwd: string,
  importModule: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<McpProxyPackage> {
  // A variable, so neither TypeScript nor the bundler goes looking for it at build time.
  const name: string = MCP_PACKAGE;
  try {
    return (await importModule(name)) as McpProxyPackage;
  } catch (error) {
    if (!isMissing(error, name)) throw error;
  }
  let url = name;
  try {
    url = pathToFileURL(createRequire(join(cwd, "package.json")).resolve(name)).href;
    return (await importModule(url)) as McpProxyPackage;
  } catch (error) {
    if (!isMissing(error, url)) throw error;
    throw new CliError(
      "CONFIG",
      `mcp-proxy needs ${MCP_PACKAGE}, which is not installed`,
      `npm install ${MCP_PACKAGE} @modelcontextprotocol/sdk (or run it as npx -y ${MCP_PACKAGE} -- <server command>)`,
      { cause: error },
    );
  }
}

/**
 * `a3s-hooks mcp-proxy [options] -- <server command…>`: hand the arguments to
 * `@a3s-lab/hooks-mcp`, which proxies MCP on stdin/stdout (run `a3s-hooks mcp-proxy --help`).
 */
export async function mcpProxyCommand(
  argv: readonly string[],
  io: CliIo,
  load: (cwd: string) => Promise<McpProxyPackage> = loadMcpPackage,
): Promise<number> {
  const mcp = await load(io.cwd);
  return mcp.runMcpProxyCli(argv, io);
}
