/**
 * One settings file read: where it is (`Candidate`), and what it holds (`LoadedFile`): its hooks,
 * options, policy keys, MCP servers and enabled plugins, or the problem that kept it from loading.
 */
import { describeValue } from "@a3s-lab/hooks-core/internal";
import { readRegularFile } from "../workspace/read-regular-file.js";
import type { HookFormat } from "./formats/hook-format.js";
import type { SettingsFileInfo, SettingsScope } from "./hook-settings.js";
import { parseJsonText } from "./json-text.js";
import { type PolicyKeys, readPolicyKeys } from "./managed-settings.js";
import { type McpServersBlock, readMcpServers } from "./mcp-servers.js";
import { type ParsedHooksBlock, parseHooksBlock } from "./parse-hooks-block.js";
import { readEnabledPlugins } from "./plugins.js";
import type { SettingsProblem } from "./settings-problem.js";

export interface Candidate {
  path: string;
  scope: SettingsScope;
  explicit: boolean;
  /** Another agent's format; absent for ours. */
  format?: HookFormat;
}

export interface LoadedFile extends ParsedHooksBlock {
  info: SettingsFileInfo;
  disableAllHooks?: boolean;
  policy?: PolicyKeys;
  /** Its `mcpServers`, as written (for the trust hash) and as read. */
  mcpServersRaw?: unknown;
  mcpServers?: McpServersBlock;
  /** Its `enabledPlugins`, as read. */
  enabledPlugins?: Record<string, boolean>;
}

/** A file that sets anything trust covers. */
export function holdsSettings(file: LoadedFile): boolean {
  return (
    file.hooks.length > 0 ||
    Object.keys(file.options).length > 0 ||
    file.disableAllHooks !== undefined ||
    file.mcpServersRaw !== undefined ||
    file.enabledPlugins !== undefined
  );
}

export async function loadFile(candidate: Candidate, maxBytes: number): Promise<LoadedFile> {
  const info: SettingsFileInfo = {
    path: candidate.path,
    scope: candidate.scope,
    exists: false,
    loaded: false,
    trusted: candidate.scope !== "project",
    hooks: 0,
    ...(candidate.format ? { format: candidate.format.name } : {}),
  };
  const out: LoadedFile = { info, hooks: [], options: {}, problems: [] };
  const doc = await readDocument(candidate, maxBytes, info);
  if (doc === undefined) return out;
  if ("problem" in doc) {
    out.problems.push(doc.problem);
    return out;
  }
  info.loaded = true;
  if (candidate.format) {
    // Another agent's file: only its hooks are read; the rest configures that agent.
    const block = candidate.format.read(doc.record, {
      file: candidate.path,
      scope: candidate.scope,
      trusted: info.trusted,
      basePath: [],
    });
    out.hooks = block.hooks;
    out.problems.push(...block.problems);
  } else readOwnKeys(doc.record, candidate, out);
  info.hooks = out.hooks.length;
  return out;
}

/**
 * A settings file's object, or the problem that keeps it from loading; `undefined` for a default
 * place with no file. Sets `info.exists` when there is a file.
 */
async function readDocument(
  candidate: Candidate,
  maxBytes: number,
  info: SettingsFileInfo,
): Promise<{ record: Record<string, unknown> } | { problem: SettingsProblem } | undefined> {
  const fail = (message: string, at: { line?: number; column?: number } = {}) => {
    const problem: SettingsProblem = { file: candidate.path, path: "", message, severity: "error" };
    if (at.line !== undefined) problem.line = at.line;
    if (at.column !== undefined) problem.column = at.column;
    return { problem };
  };
  let text: string;
  try {
    const read = await readRegularFile(candidate.path, maxBytes);
    info.exists = true;
    if (typeof read !== "string") return fail(read.problem);
    text = read;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !candidate.explicit) return undefined;
    return fail(code === "ENOENT" ? "file not found" : `cannot read: ${(error as Error).message}`);
  }
  // Another agent's file may be in another language (Codex's `config.toml`).
  const own = candidate.format?.parse?.(text, candidate.path);
  if (own && !own.ok) return fail(own.message, own);
  const parsed = own ?? parseJsonText(text);
  if (!parsed.ok) {
    return fail(
      `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`,
      parsed,
    );
  }
  const doc = parsed.value;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return fail(`expected a JSON object, got ${describeValue(doc)}`);
  }
  return { record: doc as Record<string, unknown> };
}

/** Our own settings file's keys: `disableAllHooks`, the policy keys, `enabledPlugins`, `hooks`, `mcpServers`. */
function readOwnKeys(record: Record<string, unknown>, candidate: Candidate, out: LoadedFile): void {
  const where = { file: candidate.path, scope: candidate.scope, trusted: out.info.trusted };
  if (record.disableAllHooks !== undefined) {
    if (typeof record.disableAllHooks === "boolean") out.disableAllHooks = record.disableAllHooks;
    else
      out.problems.push({
        file: candidate.path,
        path: "disableAllHooks",
        message: `expected true or false, got ${describeValue(record.disableAllHooks)}`,
        severity: "error",
      });
  }
  out.policy = readPolicyKeys(record, candidate.path, candidate.scope, out.problems);
  const enabledPlugins = readEnabledPlugins(record.enabledPlugins, candidate.path, out.problems);
  if (enabledPlugins) out.enabledPlugins = enabledPlugins;
  if (record.hooks !== undefined) {
    const block = parseHooksBlock(record.hooks, { ...where, basePath: ["hooks"] });
    out.hooks = block.hooks;
    out.options = block.options;
    out.problems.push(...block.problems);
  }
  if (record.mcpServers !== undefined) {
    out.mcpServersRaw = record.mcpServers;
    out.mcpServers = readMcpServers(record.mcpServers, where);
    out.problems.push(...out.mcpServers.problems);
  }
}
