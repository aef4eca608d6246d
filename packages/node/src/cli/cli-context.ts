import { homedir } from "node:os";
import { resolve } from "node:path";
import { HookError } from "@a3s-lab/hooks-core";
import { createMcpServerPool } from "../handlers/mcp-tool/mcp-server-pool.js";
import { modelClientFromEnv } from "../handlers/model/openai-model-client.js";
import type { ApplyHookSettingsOptions } from "../settings/apply-hook-settings.js";
import type { HookSettings } from "../settings/hook-settings.js";
import { type LoadHookSettingsOptions, loadHookSettings } from "../settings/load-hook-settings.js";
import { formatProblem } from "../settings/settings-problem.js";
import { CliError } from "./cli-error.js";
import type { Where } from "./format.js";

/** Where the CLI writes and reads; injectable so tests and hosts can run it in-process. */
export interface CliIo {
  /**
   * Where results go (`process.stdout`). When `isTTY` is true (and `NO_COLOR` is not set in
   * `env`), results are coloured.
   */
  stdout: { write(text: string): unknown; isTTY?: boolean };
  /** Where problems and progress go (`process.stderr`). */
  stderr: { write(text: string): unknown };
  /** Input, for a command told to read the event from `-` (stdin). */
  stdin: AsyncIterable<string | Uint8Array>;
  /** The directory `--cwd` defaults to. */
  cwd: string;
  /** The home directory (user settings, trust store). */
  home?: string;
  /** The system-wide policy files (`managed-settings.json`); default the platform's. */
  managedSettings?: readonly string[];
  /**
   * The environment the commands read (the model settings of `prompt` hooks, the variables MCP
   * servers get).
   */
  env: Readonly<Record<string, string | undefined>>;
}

/** Options every settings-reading command takes. */
export interface SettingsArgs {
  cwd?: string;
  settings?: string[];
  /** Plugin folders to load (`--plugin-dir`). */
  pluginDir?: string[];
  /** The format of the `--settings` files (`--format`): `claude-code`, `cursor`, `gemini`, `copilot`, `codex`, `windsurf`, `kiro`. */
  format?: string;
  defaults?: boolean;
}

/** Load the settings a command works on; a bad `--cwd` is a usage error. */
export async function loadForCli(
  options: SettingsArgs,
  io: CliIo,
): Promise<{ settings: HookSettings; where: Where }> {
  const cwd = resolve(io.cwd, options.cwd ?? ".");
  const home = resolve(io.home ?? homedir());
  try {
    const settings = await loadHookSettings({
      cwd,
      home,
      files: options.settings ?? [],
      plugins: options.pluginDir ?? [],
      defaults: options.defaults !== false,
      ...(options.format !== undefined
        ? { fileFormat: options.format as NonNullable<LoadHookSettingsOptions["fileFormat"]> }
        : {}),
      ...(io.managedSettings ? { managedSettings: io.managedSettings } : {}),
    });
    return { settings, where: { cwd: settings.cwd ?? cwd, home } };
  } catch (error) {
    if (HookError.is(error, "INVALID_CONFIG") && error.message.startsWith("fileFormat: ")) {
      throw new CliError(
        "USAGE",
        error.message.replace(/^fileFormat: /, "--format: "),
        "name a format this tool reads",
        { cause: error },
      );
    }
    if (HookError.is(error, "INVALID_CONFIG")) {
      throw new CliError(
        "USAGE",
        error.message.replace(/^cwd: /, "--cwd: "),
        "pass an existing directory",
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * What the CLI gives the hook types beyond commands: the model of `A3S_HOOKS_MODEL*` for
 * `prompt` and `agent` hooks, the configured MCP servers for `mcp_tool` hooks (started only
 * when a hook calls one; `close` stops them). Commands and http headers read the process's
 * environment, as they always have.
 */
export function cliHookOptions(
  settings: HookSettings,
  io: CliIo,
  where: Where,
): { options: ApplyHookSettingsOptions; close: () => Promise<void> } {
  const options: ApplyHookSettingsOptions = { projectDir: where.cwd };
  const modelClient = modelClientFromEnv(io.env);
  if (modelClient) options.modelClient = modelClient;
  if (settings.mcpServers && settings.mcpServers.length > 0) {
    options.mcpServers = createMcpServerPool(settings.mcpServers, { env: io.env, cwd: where.cwd });
  }
  return { options, close: async () => options.mcpServers?.close() };
}

/** The problems of a load, one line each, errors first. */
export function problemLines(settings: HookSettings, where: Where): string[] {
  const sorted = [...settings.problems].sort(
    (a, b) => Number(a.severity === "warning") - Number(b.severity === "warning"),
  );
  return sorted.map((p) => `${p.severity}: ${formatProblem(p, where)}`);
}

/** True when a load found errors (not only warnings). */
export function hasErrors(settings: HookSettings): boolean {
  return settings.problems.some((p) => p.severity === "error");
}

/** Read a whole stream (stdin, a file) as UTF-8, refusing more than `max` bytes as they arrive. */
export async function readAll(
  source: AsyncIterable<string | Uint8Array>,
  max: number,
  what: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk);
    size += buffer.length;
    if (size > max) throw new CliError("USAGE", `${what} is larger than ${max} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
