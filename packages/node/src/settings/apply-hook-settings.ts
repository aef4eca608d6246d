import {
  type HookEngine,
  type HookEngineOptions,
  HookError,
  type HookHandle,
  type HookRegistration,
} from "@a3s-lab/hooks-core";
import { definedFailBehavior } from "../handlers/hook-common.js";
import { checkHttpHook } from "../handlers/http-hook.js";
import { createMcpServerPool } from "../handlers/mcp-server-pool.js";
import type { McpServerPool } from "../handlers/mcp-tool-hook.js";
import { describeDefinition } from "../handlers/settings-handler.js";
import { linearRegex } from "../linear-regex.js";
import { withCondition } from "./hook-condition.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import { allHooksOff, httpPolicyFor, policySkip } from "./managed-settings.js";
import { ifAppliesTo } from "./permission-rule.js";
import {
  type SettingsHookOptions,
  type SettingsRegistrationContext,
  settingsHookRegistration,
} from "./settings-hook-registration.js";
import { displayPath } from "./settings-problem.js";

/** Why a configured hook is not registered. */
export type SkipReason =
  | "disabled"
  | "managed-only"
  | "plugin-only"
  | "untrusted"
  | "condition"
  | "duplicate"
  | "policy"
  | "unavailable"
  | "limit"
  | "invalid";

/** A configured hook that does not run, and why. */
export interface SkippedHook {
  /** The hook that was not registered. */
  hook: SettingsHook;
  /** Why, as a code to branch on (`untrusted`, `duplicate`, …). */
  reason: SkipReason;
  /** A sentence for people: `same command as hooks.PreToolUse[0].hooks[0] in ~/.claude/settings.json`. */
  message: string;
}

/** A hook that was registered, with its engine id. */
export interface AppliedHook {
  /** The hook from the settings. */
  hook: SettingsHook;
  /** Its id in the engine. */
  id: string;
}

/** What would be registered, in execution order, and what would not. */
export interface SettingsPlan {
  /** The hooks that would be registered, in execution order. */
  apply: SettingsHook[];
  /** The hooks that would not, each with its reason. */
  skipped: SkippedHook[];
}

/**
 * Options of `applyHookSettings`: how its hooks run (the command options apply to command
 * hooks; `env` and `maxOutputBytes` to http hooks too), and what the other types need.
 */
export interface ApplyHookSettingsOptions extends SettingsHookOptions {}

/** The registrations one `applyHookSettings` made; `unregister` removes them all (for reloads). */
export interface SettingsHandle extends Disposable {
  /** The hooks registered, with their engine ids. */
  readonly applied: readonly AppliedHook[];
  /** The hooks not registered, each with its reason. */
  readonly skipped: readonly SkippedHook[];
  /** Remove every hook this call registered; calling it again does nothing. */
  unregister(): void;
}

function dedupKey(hook: SettingsHook): string {
  const d = hook.definition;
  const what =
    hook.type !== "command"
      ? [hook.type, describeDefinition(d), d]
      : d.command !== undefined
        ? ["sh", d.command]
        : ["exec", ...(d.args ?? [])];
  return JSON.stringify([hook.event, hook.matcher ?? "*", hook.if ?? "", what]);
}

/**
 * Decide, without registering anything, which hooks run and which do not (and why): off when
 * `enabled: false` or `disableAllHooks: true` (managed hooks stay on unless a managed file says
 * so), only managed hooks under a managed `allowManagedHooksOnly: true`; untrusted project hooks off; an identical
 * command for the same event and matcher only once (the highest-precedence copy).
 */
export function planHookSettings(settings: HookSettings): SettingsPlan {
  const plan: SettingsPlan = { apply: [], skipped: [] };
  const where = {
    ...(settings.cwd !== undefined ? { cwd: settings.cwd } : {}),
    ...(settings.home !== undefined ? { home: settings.home } : {}),
  };
  const first = new Map<string, SettingsHook>();
  for (const hook of settings.hooks) {
    const policy = policySkip(settings, hook, where);
    if (policy) {
      plan.skipped.push({ hook, ...policy });
      continue;
    }
    if (!hook.trusted) {
      plan.skipped.push({
        hook,
        reason: "untrusted",
        message: settings.project?.changed
          ? `the project's hook settings changed since you trusted them; review them and run "a3s-hooks trust"`
          : `the project's hook settings are not trusted yet; review them and run "a3s-hooks trust"`,
      });
      continue;
    }
    if (hook.if !== undefined && !ifAppliesTo(hook.event)) {
      plan.skipped.push({
        hook,
        reason: "condition",
        message: `"if": ${JSON.stringify(hook.if)} is tested on tool events only; on ${hook.event} it never matches`,
      });
      continue;
    }
    const key = dedupKey(hook);
    const earlier = first.get(key);
    if (earlier) {
      plan.skipped.push({
        hook,
        reason: "duplicate",
        message: `same ${hook.type === "command" ? "command" : `${hook.type} hook`} as ${earlier.path} in ${displayPath(earlier.source, where)}, which runs instead`,
      });
      continue;
    }
    first.set(key, hook);
    plan.apply.push(hook);
  }
  return plan;
}

/**
 * Register every hook the settings allow on an engine, as command hooks. Returns a handle that
 * removes them all, with what was applied and what was skipped (and why). Never throws for a
 * hook: one the engine refuses (a limit, say) is listed in `skipped`.
 *
 * @example
 * ```ts
 * const settings = await loadHookSettings({ cwd });
 * const engine = new HookEngine(engineOptionsFromSettings(settings));
 * using handle = applyHookSettings(engine, settings, { projectDir: cwd });
 * for (const s of handle.skipped) console.warn(`${s.hook.name}: ${s.message}`);
 * ```
 */
export function applyHookSettings(
  engine: HookEngine,
  settings: HookSettings,
  options: ApplyHookSettingsOptions = {},
): SettingsHandle {
  const plan = planHookSettings(settings);
  const applied: AppliedHook[] = [];
  const skipped = [...plan.skipped];
  const handles: HookHandle[] = [];
  const fromSettings = settings.options.defaultTimeout;
  // mcp_tool hooks call the servers the settings configure, unless the host brings its own
  // pool; one made here is this handle's, closed with it (servers start on first call only).
  let ownPool: McpServerPool | undefined;
  if (
    options.mcpServers === undefined &&
    settings.mcpServers?.length &&
    plan.apply.some((hook) => hook.definition.type === "mcp_tool")
  ) {
    ownPool = createMcpServerPool(settings.mcpServers, {
      cwd: options.projectDir ?? settings.cwd ?? process.cwd(),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    options = { ...options, mcpServers: ownPool };
  }
  const register = (registration: HookRegistration, hook: SettingsHook) => {
    const handle = engine.register(registration);
    handles.push(handle);
    applied.push({ hook, id: handle.id });
  };
  for (const hook of plan.apply) {
    const ctx: SettingsRegistrationContext = {
      matcher: withCondition(hook, {
        cwd: options.projectDir ?? settings.cwd,
        home: settings.home,
      }),
      failBehavior: settings.options.failBehavior,
      defaultTimeoutMs: fromSettings !== undefined ? Math.ceil(fromSettings) : undefined,
      httpPolicy: httpPolicyFor(settings, hook),
    };
    const refused =
      hook.definition.type === "http"
        ? checkHttpHook(hook.definition, ctx.httpPolicy).find((p) => p.severity === "error")
        : undefined;
    let registration: HookRegistration | undefined;
    let cannotRun:
      | { reason: "policy" | "unavailable"; message: string; error: HookError }
      | undefined;
    if (refused) {
      const message = `${refused.field}: ${refused.message}`;
      cannotRun = { reason: "policy", message, error: new HookError("UNAVAILABLE", message) };
    } else {
      try {
        registration = settingsHookRegistration(hook, ctx, options);
      } catch (error) {
        const e = HookError.from(error);
        const unavailable =
          e.code === "UNAVAILABLE" || (e.code === "INVALID_CONFIG" && hook.type !== "command");
        if (!unavailable) {
          skipped.push({ hook, reason: "invalid", message: e.message });
          continue;
        }
        cannotRun = { reason: "unavailable", message: `cannot run here: ${e.message}`, error: e };
      }
    }
    if (cannotRun) {
      const closed = (definedFailBehavior(hook.definition) ?? ctx.failBehavior) === "block";
      skipped.push({
        hook,
        reason: cannotRun.reason,
        message: `${cannotRun.message}${closed ? "; it fails closed, so every firing it matches blocks" : ""}`,
      });
      if (!closed) continue;
      // Refused or unavailable, a fail-closed hook must not become a hole: it stays, and blocks.
      registration = unavailableStandIn(hook, ctx, cannotRun.error);
    }
    try {
      register(registration!, hook);
    } catch (error) {
      const e = HookError.from(error);
      skipped.push({
        hook,
        reason: e.code === "LIMIT_EXCEEDED" ? "limit" : "invalid",
        message: e.message,
      });
    }
  }
  const unregister = () => {
    for (const handle of handles.splice(0)) handle.unregister();
    // Closing only stops processes; a failure to do so has nobody left to tell.
    ownPool?.close().catch(() => {});
    ownPool = undefined;
  };
  return { applied, skipped, unregister, [Symbol.dispose]: unregister };
}

/** A fail-closed hook that cannot run in this host: every firing it matches fails, so it blocks. */
function unavailableStandIn(
  hook: SettingsHook,
  ctx: SettingsRegistrationContext,
  why: HookError,
): HookRegistration {
  const error = new HookError("UNAVAILABLE", `${hook.name} cannot run here: ${why.message}`);
  const registration: HookRegistration = {
    event: hook.event,
    name: hook.name,
    source: hook.source,
    failBehavior: "block",
    handler: () => {
      throw error;
    },
    regex: linearRegex,
  };
  if (ctx.matcher !== undefined) registration.matcher = ctx.matcher as never;
  if (hook.definition.priority !== undefined) registration.priority = hook.definition.priority;
  return registration;
}

/** The engine options the settings ask for (`new HookEngine(engineOptionsFromSettings(s))`). */
export function engineOptionsFromSettings(settings: HookSettings): HookEngineOptions {
  const o = settings.options;
  const out: HookEngineOptions = {};
  if (allHooksOff(settings)) out.enabled = false;
  if (o.maxHooksPerEvent !== undefined) out.maxHooksPerEvent = o.maxHooksPerEvent;
  if (o.maxTotalHooks !== undefined) out.maxTotalHooks = o.maxTotalHooks;
  if (o.defaultTimeout !== undefined) out.defaultTimeoutMs = o.defaultTimeout;
  if (o.failBehavior !== undefined) out.failBehavior = o.failBehavior;
  if (o.auditLevel !== undefined) out.auditLevel = o.auditLevel;
  return out;
}
