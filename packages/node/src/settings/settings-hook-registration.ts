import { resolve } from "node:path";
import {
  type FailBehavior,
  HookError,
  type HookEvent,
  type HookHandler,
  type HookRegistration,
  type HookResponse,
  type Matcher,
} from "@a3s-lab/hooks-core";
import type { CommandHookDefinition } from "../handlers/command/command-definition.js";
import {
  CommandHook,
  type CommandHookOptions,
  type CommandRunReport,
} from "../handlers/command/command-hook.js";
import { applyCommonFields } from "../handlers/hook-common.js";
import { toHookInput } from "../handlers/hook-input.js";
import { checkHttpHook, type HttpHookPolicy } from "../handlers/http/http-hook.js";
import type { McpServerPool } from "../handlers/mcp-tool/mcp-tool-hook.js";
import type { HookModelClient } from "../handlers/model/model-client.js";
import type { HookAgentRunner } from "../handlers/model/prompt-hook.js";
import {
  createSettingsHandler,
  DEFAULT_TIMEOUT_SECONDS,
  describeDefinition,
  type SettingsHookDefinition,
} from "../handlers/settings-handler.js";
import { linearRegex } from "../support/linear-regex.js";
import { HOOK_FORMATS } from "./formats/hook-formats.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import { httpPolicyFor } from "./managed-settings.js";
import { pluginVariables } from "./plugins.js";
import type { SettingsProblem } from "./settings-problem.js";

/** A block from an `asyncRewake` hook, delivered once the hook ended: wake the model with `reason`. */
export interface AsyncRewake {
  /** The hook that blocked. */
  hook: SettingsHook;
  /** The event it ran for. */
  event: HookEvent;
  /** The block's reason (a command's stderr on exit code 2). */
  reason: string;
}

/** How the hooks of a settings file run: shared by every hook one `applyHookSettings` registers. */
export interface SettingsHookOptions extends Omit<CommandHookOptions, "onRun"> {
  /**
   * Called after every run of one of these hooks. For types other than `command` the process
   * fields are empty: `command` is the hook's one-line description (`POST <url>`, …).
   */
  onRun?: (report: CommandRunReport, hook: SettingsHook) => void;
  /**
   * Where `asyncRewake` hooks deliver a block once they end (Claude Code wakes the model with
   * it). Without it such hooks cannot run here: they are skipped as `unavailable`.
   */
  onAsyncRewake?: (rewake: AsyncRewake) => void;
  /** The model `prompt` and `agent` hooks ask. Without one they are skipped as `unavailable`. */
  modelClient?: HookModelClient;
  /** The host's own agent for `agent` hooks (else the built-in verifier on `modelClient`). */
  agentRunner?: HookAgentRunner;
  /**
   * The MCP servers `mcp_tool` hooks call. Default (in `applyHookSettings`): the servers the
   * settings configure, started on first call and closed when the handle is.
   */
  mcpServers?: McpServerPool;
}

/** What a registration needs from the settings besides the hook. */
export interface SettingsRegistrationContext {
  matcher: Matcher | undefined;
  /** The settings' `failBehavior`, for hooks that set none. */
  failBehavior: FailBehavior | undefined;
  /** The settings' `defaultTimeout` (milliseconds), for hooks that set no `timeout`. */
  defaultTimeoutMs: number | undefined;
  /** The settings' `allowedHttpHookUrls` and `httpHookAllowedEnvVars`. */
  httpPolicy: HttpHookPolicy;
  /** The settings' `commandHookAllowedSecrets`, for command hooks when the host gives none. */
  allowedSecrets?: readonly string[];
}

/**
 * The core registration of one settings-file hook, whatever its type: `command` runs through
 * `CommandHook`, the others through their type's factory (see `createSettingsHandler`). The
 * common fields apply the same way to all: `timeout`, `onFailure`/`failBehavior`, `async`,
 * `asyncRewake`, `once`, `priority`. Throws a `HookError` when the hook cannot run in this
 * host: `UNAVAILABLE` (an `asyncRewake` hook without `onAsyncRewake`), or the type factory's
 * `INVALID_CONFIG` (no model for `prompt`, no such MCP server for `mcp_tool`).
 */
export function settingsHookRegistration(
  hook: SettingsHook,
  ctx: SettingsRegistrationContext,
  options: SettingsHookOptions,
): HookRegistration {
  const { onRun, onAsyncRewake, modelClient, agentRunner, mcpServers, ...commandOptions } = options;
  const d = hook.definition;
  if (d.asyncRewake === true && !onAsyncRewake) {
    throw new HookError(
      "UNAVAILABLE",
      "asyncRewake: this host cannot wake the model with a late answer (it gives no onAsyncRewake)",
    );
  }
  let registration: HookRegistration;
  if (d.type === undefined || d.type === "command") {
    const defaultTimeoutMs = commandOptions.defaultTimeoutMs ?? ctx.defaultTimeoutMs;
    const allowedSecrets = commandOptions.allowedSecrets ?? ctx.allowedSecrets;
    const command = new CommandHook(
      { ...withPluginVariables(d as CommandHookDefinition, hook), name: hook.name },
      {
        ...commandOptions,
        ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}),
        ...(allowedSecrets !== undefined ? { allowedSecrets } : {}),
        ...(onRun ? { onRun: (report: CommandRunReport) => onRun(report, hook) } : {}),
        // A hook from another agent's file speaks that agent's protocol.
        ...(hook.origin ? { dialect: HOOK_FORMATS[hook.origin.format].dialect(hook.origin) } : {}),
      },
    );
    registration = command.registration({
      event: hook.event,
      matcher: ctx.matcher,
      source: hook.source,
      failBehavior: ctx.failBehavior,
    }) as HookRegistration;
  } else {
    const typed = d as Exclude<SettingsHookDefinition, CommandHookDefinition>;
    const projectDir = resolve(commandOptions.projectDir ?? process.cwd());
    const timeoutMs =
      d.timeout !== undefined
        ? Math.round(d.timeout * 1000)
        : (ctx.defaultTimeoutMs ?? DEFAULT_TIMEOUT_SECONDS[typed.type] * 1000);
    const handler = createSettingsHandler(typed, {
      projectDir,
      http: {
        policy: ctx.httpPolicy,
        // The engine times the hook out first (and says so); this only ends a request it missed.
        timeoutMs: timeoutMs + 500,
        ...(commandOptions.env !== undefined ? { env: commandOptions.env } : {}),
      },
      ...(commandOptions.maxOutputBytes !== undefined
        ? { maxOutputBytes: commandOptions.maxOutputBytes }
        : {}),
      modelClient,
      agentRunner,
      mcpServers,
      name: hook.name,
    });
    const cwd = resolve(projectDir, commandOptions.cwd ?? projectDir);
    const shown = describeDefinition(typed);
    const run: HookHandler = async (event, hctx) => {
      const started = performance.now();
      const finish = (answer: HookResponse | undefined, error?: unknown) => {
        if (!onRun) return;
        const report = emptyReport(hook, event, shown, performance.now() - started);
        if (error !== undefined) {
          report.error = HookError.from(error, "HANDLER_FAILED");
          report.timedOut = HookError.is(error, "TIMEOUT");
          report.aborted = HookError.is(error, "ABORTED");
        } else if (answer !== undefined) report.response = answer;
        try {
          onRun(report, hook);
        } catch {
          // A reporting callback must not change what the hook answered.
        }
      };
      try {
        const answer = await handler({
          event,
          input: toHookInput(event, { cwd }),
          signal: hctx.signal,
        });
        finish(answer);
        return answer;
      } catch (error) {
        finish(undefined, error);
        throw error;
      }
    };
    registration = { event: hook.event, handler: run, timeoutMs, name: hook.name };
    if (ctx.matcher !== undefined) registration.matcher = ctx.matcher as never;
    applyCommonFields(registration, d, { failBehavior: ctx.failBehavior, source: hook.source });
  }
  if (d.asyncRewake === true && onAsyncRewake) {
    const inner = registration.handler;
    registration.handler = async (event, hctx) => {
      const answer = await inner(event as never, hctx);
      if (answer && answer.action === "block") {
        try {
          onAsyncRewake({ hook, event, reason: answer.reason });
        } catch {
          // The host's delivery failing must not turn into this hook's failure.
        }
      }
      return answer;
    };
  }
  // A settings file may come from a cloned repository: its patterns must not stall the agent.
  return { ...registration, regex: linearRegex };
}

/**
 * A plugin's command with `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` (and the Open Plugins
 * format's `PLUGIN_ROOT` and `PLUGIN_DATA`) in its environment: the
 * shell expands `${CLAUDE_PLUGIN_ROOT}` in the command text itself (a folder name never becomes
 * shell text), and the exec form's arguments, which no shell reads, get the paths put in.
 */
function withPluginVariables(
  definition: CommandHookDefinition,
  hook: SettingsHook,
): CommandHookDefinition {
  if (!hook.plugin) return definition;
  const variables = pluginVariables(hook.plugin);
  const out = { ...definition, env: { ...definition.env, ...variables } };
  if (out.args) {
    const put = (text: string) =>
      text.replace(
        /\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|PLUGIN_ROOT|PLUGIN_DATA)\}/g,
        (_whole, name: keyof typeof variables) => variables[name] ?? "",
      );
    out.args = out.args.map(put) as [string, ...string[]];
  }
  return out as CommandHookDefinition;
}

function emptyReport(
  hook: SettingsHook,
  event: HookEvent,
  command: string,
  duration: number,
): CommandRunReport {
  const report: CommandRunReport = {
    name: hook.name,
    event: event.eventType,
    eventId: event.eventId,
    command,
    exitCode: null,
    signal: null,
    duration,
    stdout: "",
    stderr: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    truncated: { stdout: false, stderr: false },
    timedOut: false,
    aborted: false,
    notes: [],
  };
  if (hook.definition.statusMessage !== undefined)
    report.statusMessage = hook.definition.statusMessage;
  return report;
}

/**
 * What the http policy (`allowedHttpHookUrls`, `httpHookAllowedEnvVars`) does to the loaded http
 * hooks, as warnings naming the hook's field: a URL it does not allow (the hook will not run),
 * a header variable it does not allow (sent as an empty string). What a hook's own fields
 * cause was reported when its file was read.
 */
export function httpPolicyProblems(settings: HookSettings): SettingsProblem[] {
  if (!settings.httpHookPolicy && !settings.managedPolicy) return [];
  const out: SettingsProblem[] = [];
  for (const hook of settings.hooks) {
    if (hook.definition.type !== "http") continue;
    const policy = httpPolicyFor(settings, hook);
    const own = new Set(checkHttpHook(hook.definition).map((p) => `${p.field}\n${p.message}`));
    for (const p of checkHttpHook(hook.definition, policy)) {
      if (own.has(`${p.field}\n${p.message}`)) continue;
      out.push({
        file: hook.source,
        path: `${hook.path}.${p.field}`,
        message: p.field === "url" ? `${p.message}; this hook does not run` : p.message,
        severity: "warning",
      });
    }
  }
  return out;
}
