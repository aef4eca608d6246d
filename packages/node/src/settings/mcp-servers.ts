import { join } from "node:path";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import * as z from "zod";
import { noNul } from "../handlers/command/command-definition.js";
import type {
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
} from "../handlers/mcp-tool/mcp-server-config.js";
import { loadMcpSdk } from "../handlers/mcp-tool/mcp-server-pool.js";
import { HOST_SECRET_VARIABLES } from "../support/host-secrets.js";
import { readRegularFile } from "../workspace/read-regular-file.js";
import type { HookSettings } from "./hook-settings.js";
import { parseJsonText } from "./json-text.js";
import type { LoadedMcpServer, SettingsScope } from "./settings-origins.js";
import { type SettingsProblem, zodProblems } from "./settings-problem.js";

export type { LoadedMcpServer } from "./settings-origins.js";
export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig };

/** The project file Claude Code keeps project-scope servers in. */
export const MCP_JSON_FILE = ".mcp.json";

/** More servers than this in one file are refused (the rest of the file still loads). */
export const MAX_MCP_SERVERS_PER_FILE = 64;

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const headerValue = noNul("a header value").refine((s) => !/[\r\n]/.test(s), {
  error: "expected a header value without line breaks",
});

const stdioSchema = z.looseObject({
  type: z.literal("stdio", { error: 'expected "stdio", "http" or no type' }).optional(),
  command: noNul("a command")
    .min(1, { error: "expected a non-empty command" })
    .max(4096, { error: "expected a command of at most 4096 characters" }),
  args: z
    .array(noNul("an argument").max(65_536), { error: "expected an array of strings" })
    .max(1024, { error: "expected at most 1024 arguments" })
    .optional(),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name" }),
      noNul("a value").max(65_536),
      { error: "expected an object of string values" },
    )
    .optional(),
});

const httpSchema = z.looseObject({
  type: z.literal("http"),
  url: z
    .string({ error: "expected a URL" })
    .max(8192, { error: "expected a URL of at most 8192 characters" }),
  headers: z
    .record(
      z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: "expected a header name" }),
      headerValue.max(16_384),
      { error: "expected an object of string values" },
    )
    .optional(),
});

/** `${VAR}` and `${VAR:-default}` from `env`, as Claude Code expands `.mcp.json`. */
function expand(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: Set<string>,
): string {
  return text.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    // The hook server's token and the hooks' model keys never leave this process through a
    // server's configuration: a project's .mcp.json could otherwise send them to any URL.
    const value = HOST_SECRET_VARIABLES.has(name) ? undefined : env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return "";
  });
}

function checkUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `expected an absolute http: or https: URL, got ${JSON.stringify(raw.slice(0, 200))}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `expected an http: or https: URL, got ${url.protocol}`;
  if (url.username || url.password)
    return "a URL with credentials in it is refused; put them in headers";
  return undefined;
}

/** Where a `mcpServers` object was found, and whether its servers may run. */
export interface McpServersSource {
  file: string;
  scope: SettingsScope;
  trusted: boolean;
  /** The environment `${VAR}` reads. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What one `mcpServers` object holds. */
export interface McpServersBlock {
  servers: LoadedMcpServer[];
  problems: SettingsProblem[];
}

/**
 * Read a `mcpServers` object (`.mcp.json`, a settings file): stdio servers
 * `{ command, args?, env? }` (`type: "stdio"` optional) and Streamable HTTP servers
 * `{ type: "http", url, headers? }`. `${VAR}` and `${VAR:-default}` in commands, arguments,
 * `env` values, URLs and headers are read from the environment, except the host's secrets
 * (`HOST_SECRET_VARIABLES`), which count as unset. A bad entry
 * is a problem naming its JSON path; the other entries still load.
 */
export function readMcpServers(value: unknown, source: McpServersSource): McpServersBlock {
  const out: McpServersBlock = { servers: [], problems: [] };
  const problem = (path: string, message: string, severity: "error" | "warning" = "error") =>
    out.problems.push({ file: source.file, path, message, severity });
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problem("mcpServers", `expected an object of servers by name, got ${describeValue(value)}`);
    return out;
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_MCP_SERVERS_PER_FILE) {
    problem(
      "mcpServers",
      `${entries.length} servers; at most ${MAX_MCP_SERVERS_PER_FILE} are read from one file, the rest are ignored`,
    );
  }
  const env = source.env ?? process.env;
  for (const [name, entry] of entries.slice(0, MAX_MCP_SERVERS_PER_FILE)) {
    const path = `mcpServers.${name}`;
    if (!NAME.test(name)) {
      problem(
        "mcpServers",
        `server name ${JSON.stringify(name.slice(0, 80))} is not usable: expected 1 to 64 letters, digits, ".", "_" or "-"`,
      );
      continue;
    }
    const type = (entry as { type?: unknown } | null)?.type;
    if (type !== undefined && type !== "stdio" && type !== "http") {
      problem(
        `${path}.type`,
        `${describeValue(type)} servers are not supported by a3s-hooks (only "stdio" and "http"); this server is ignored`,
        "warning",
      );
      continue;
    }
    const missing = new Set<string>();
    let config: McpServerConfig;
    if (type === "http") {
      const parsed = httpSchema.safeParse(entry);
      if (!parsed.success) {
        out.problems.push(...zodProblems(parsed.error, entry, source.file, ["mcpServers", name]));
        continue;
      }
      const url = expand(parsed.data.url, env, missing);
      const bad = checkUrl(url);
      if (bad) {
        problem(`${path}.url`, bad);
        continue;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed.data.headers ?? {}))
        headers[k] = expand(v, env, missing);
      config = { type: "http", url, headers };
    } else {
      const parsed = stdioSchema.safeParse(entry);
      if (!parsed.success) {
        out.problems.push(...zodProblems(parsed.error, entry, source.file, ["mcpServers", name]));
        continue;
      }
      const envOut: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed.data.env ?? {}))
        envOut[k] = expand(v, env, missing);
      config = {
        type: "stdio",
        command: expand(parsed.data.command, env, missing),
        args: (parsed.data.args ?? []).map((a) => expand(a, env, missing)),
        env: envOut,
      };
    }
    if (missing.size > 0) {
      problem(
        path,
        `environment variable${missing.size > 1 ? "s" : ""} ${[...missing].join(", ")} not set (and no \${VAR:-default}); this server is ignored`,
      );
      continue;
    }
    out.servers.push({
      name,
      config,
      source: source.file,
      path,
      scope: source.scope,
      trusted: source.trusted,
    });
  }
  return out;
}

/** What the project's `.mcp.json` holds: its `mcpServers` as written (for the trust hash) and as read. */
export interface McpJsonFile extends McpServersBlock {
  path: string;
  exists: boolean;
  /** The `mcpServers` value as written, when there is one. */
  raw?: unknown;
}

/**
 * Read `<projectDir>/.mcp.json`. A missing file is no problem; a bad one is reported. Its
 * servers come back untrusted: the caller marks them trusted once the project is.
 */
export async function loadMcpJson(
  projectDir: string,
  options: {
    maxBytes: number;
    env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<McpJsonFile> {
  const path = join(projectDir, MCP_JSON_FILE);
  const out: McpJsonFile = { path, exists: false, servers: [], problems: [] };
  const fail = (message: string, at: { line?: number; column?: number } = {}) => {
    out.problems.push({ file: path, path: "", message, severity: "error", ...at });
    return out;
  };
  let text: string;
  try {
    const read = await readRegularFile(path, options.maxBytes);
    out.exists = true;
    if (typeof read !== "string") return fail(read.problem);
    text = read;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return out;
    return fail(`cannot read: ${(error as Error).message}`);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return fail(`invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, {
      line: parsed.line,
      column: parsed.column,
    });
  }
  const doc = parsed.value;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return fail(`expected a JSON object, got ${describeValue(doc)}`);
  }
  const raw = (doc as Record<string, unknown>).mcpServers;
  if (raw === undefined) return out;
  out.raw = raw;
  const block = readMcpServers(raw, {
    file: path,
    scope: "project",
    trusted: false,
    ...(options.env ? { env: options.env } : {}),
  });
  out.servers = block.servers;
  out.problems = block.problems;
  return out;
}

/**
 * One server per name: the first (highest precedence) trusted one wins. An untrusted project
 * server does not hide the user's server of the same name; it is listed only when no trusted
 * one has that name.
 */
export function mergeMcpServers(blocks: readonly McpServersBlock[]): LoadedMcpServer[] {
  const all = blocks.flatMap((b) => b.servers);
  const out = new Map<string, LoadedMcpServer>();
  for (const server of all)
    if (server.trusted && !out.has(server.name)) out.set(server.name, server);
  for (const server of all) if (!out.has(server.name)) out.set(server.name, server);
  return [...out.values()];
}

/**
 * Load-time problems of the `mcp_tool` hooks that would run: a server name nobody configured
 * (or only an untrusted project did), and the MCP SDK not installed. `importModule` is the
 * dynamic `import()`, replaceable in tests; it runs only when such a hook exists.
 */
export async function mcpToolHookProblems(
  settings: Pick<HookSettings, "hooks" | "mcpServers">,
  importModule?: (specifier: string) => Promise<unknown>,
): Promise<SettingsProblem[]> {
  const problems: SettingsProblem[] = [];
  const servers = settings.mcpServers ?? [];
  const trusted = new Set(servers.filter((s) => s.trusted).map((s) => s.name));
  const untrusted = new Set(servers.filter((s) => !s.trusted).map((s) => s.name));
  let first: { file: string; path: string } | undefined;
  for (const hook of settings.hooks) {
    const definition = hook.definition as { type?: unknown; server?: unknown };
    if (!hook.trusted || definition.type !== "mcp_tool" || typeof definition.server !== "string")
      continue;
    first ??= { file: hook.source, path: hook.path };
    if (trusted.has(definition.server)) continue;
    problems.push({
      file: hook.source,
      path: `${hook.path}.server`,
      message: untrusted.has(definition.server)
        ? `mcp_tool hook "${hook.name}": MCP server "${definition.server}" is configured only by this project, which is not trusted yet; run "a3s-hooks trust"`
        : `mcp_tool hook "${hook.name}": no MCP server named "${definition.server}" is configured (add it to "mcpServers" in .mcp.json or a settings file)`,
      severity: "error",
    });
  }
  if (first) {
    try {
      await loadMcpSdk(importModule);
    } catch (error) {
      problems.push({ ...first, message: (error as Error).message, severity: "error" });
    }
  }
  return problems;
}
