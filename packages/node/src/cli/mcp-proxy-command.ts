import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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

/** The folder of the nearest package.json above `file` that names `name`, if any. */
function packageRootOf(file: string, name: string): string | undefined {
  let dir = dirname(file);
  for (let i = 0; i < 5; i++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
      };
      if (manifest.name === name) return dir;
    } catch {
      // No manifest here (or an unreadable one): look one folder up.
    }
    dir = dirname(dir);
  }
  return undefined;
}

/**
 * The entry of `@a3s-lab/hooks-mcp` in the repository this CLI runs from, when it runs from a
 * checkout of the monorepo (the two packages are siblings under `packages/`): its source when
 * this module is source (`pnpm a3s-hooks`), its build otherwise. Undefined anywhere else.
 */
function workspaceEntry(from: string): string | undefined {
  const self = fileURLToPath(from);
  const root = packageRootOf(self, "@a3s-lab/hooks-node");
  if (root === undefined) return undefined;
  const sibling = join(root, "..", "mcp");
  if (packageRootOf(join(sibling, "package.json"), MCP_PACKAGE) !== sibling) return undefined;
  const entry = join(sibling, self.endsWith(".ts") ? "src/index.ts" : "dist/index.js");
  return existsSync(entry) ? pathToFileURL(entry).href : undefined;
}

/**
 * Load the package from this CLI's own installation, never from the folder the command runs
 * in: a cloned repository's `node_modules` is not a trust step. It is imported as the CLI's own
 * imports are (resolved from this module: beside it, or above it in the installation's
 * `node_modules`), else, in a checkout of the monorepo, from the sibling package.
 * `importModule` is the dynamic `import()`, replaceable in tests; `from` is the module URL to
 * resolve from (this one).
 */
export async function loadMcpPackage(
  importModule: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
  from: string = import.meta.url,
): Promise<McpProxyPackage> {
  // A variable, so neither TypeScript nor the bundler goes looking for it at build time.
  const name: string = MCP_PACKAGE;
  let missing: unknown;
  try {
    return (await importModule(name)) as McpProxyPackage;
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    missing = error;
  }
  const entry = workspaceEntry(from);
  if (entry !== undefined) return (await importModule(entry)) as McpProxyPackage;
  throw new CliError(
    "CONFIG",
    `mcp-proxy needs ${MCP_PACKAGE}, which is not installed beside this a3s-hooks`,
    `install it where @a3s-lab/hooks-node is installed: npm install ${MCP_PACKAGE} @modelcontextprotocol/sdk (add -g for a global a3s-hooks), or run npx -y ${MCP_PACKAGE} -- <server command>`,
    { cause: missing },
  );
}

/**
 * `a3s-hooks mcp-proxy [options] -- <server command…>`: hand the arguments to
 * `@a3s-lab/hooks-mcp`, which proxies MCP on stdin/stdout (run `a3s-hooks mcp-proxy --help`).
 */
export async function mcpProxyCommand(
  argv: readonly string[],
  io: CliIo,
  load: () => Promise<McpProxyPackage> = () => loadMcpPackage(),
): Promise<number> {
  const mcp = await load();
  return mcp.runMcpProxyCli(argv, io);
}
