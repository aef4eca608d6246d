import {
  type HookEngine,
  type HookEngineOptions,
  HookError,
  type HookHandle,
  type HookRegistration,
} from "@a3s-lab/hooks-core";
import { definedFailBehavior } from "../handlers/hook-common.js";
import { checkHttpHook } from "../handlers/http/http-hook.js";
import { createMcpServerPool } from "../handlers/mcp-tool/mcp-server-pool.js";
import type { McpServerPool } from "../handlers/mcp-tool/mcp-tool-hook.js";
import { linearRegex } from "../support/linear-regex.js";
import { withCondition } from "./hook-condition.js";
import { hookFingerprint } from "./hook-fingerprint.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import { canonicalJson } from "./json-text.js";
import { allowedSecretsFor, httpPolicyFor, policySkip } from "./managed-settings.js";
import { ifAppliesTo } from "./permission-rule.js";
import { changedSinceTrust } from "./project-scripts.js";
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

/**
 * Two hooks are the same only when every field is: a copy of a guard with the same command but
 * `async: true`, a tiny timeout or another `cwd` is another hook, and both run (else a lower
 * scope's copy could stand in for the guard and weaken it).
 */
function dedupKey(hook: SettingsHook): string {
  // `type` is left out of the definition: a command hook may spell it or not.
  const { type: _type, ...definition } = hook.definition as unknown as Record<string, unknown>;
  const key = [hook.event, hook.matcher ?? "*", hook.if ?? "", hook.type, definition];
  // Another agent's hook speaks that agent's protocol and matches on its own tool names: the
  // same command in another format, or under another of its events, is another hook.
  return canonicalJson(hook.origin ? [...key, hook.origin] : key);
}

/** The value of an engine-wide option when a managed file set it, else undefined. */
function managedOption<K extends keyof HookSettings["options"]>(
  settings: HookSettings,
  key: K,
): HookSettings["options"][K] | undefined {
  const source = settings.optionSources[key];
  return settings.files.some((f) => f.path === source && f.scope === "managed")
    ? settings.options[key]
    : undefined;
}

/** The engine's own default fail behaviour: what a managed hook gets when no managed file sets one. */
const BUILT_IN_FAIL_BEHAVIOR = "continue" as const;

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
    if (hook.disabled && hook.scope !== "managed") {
      const id = hookFingerprint(hook);
      plan.skipped.push({
        hook,
        reason: "disabled",
        message: `turned off by "a3s-hooks disable ${id}"; "a3s-hooks enable ${id}" turns it back on`,
      });
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
        message: `same ${hook.type === "command" ? "command" : `${hook.type} hook`} as ${earlier.path} in ${displayPath(earlier.source, where)} (identical in every field), which runs instead`,
      });
      continue;
    }
    const limit = hook.scope === "managed" ? undefined : lowerScopeLimit(settings, plan, hook);
    if (limit) {
      plan.skipped.push({
        hook,
        reason: "limit",
        message: `"${limit.key}": ${limit.value} in ${displayPath(limit.file, where)} is reached`,
      });
      continue;
    }
    first.set(key, hook);
    plan.apply.push(hook);
  }
  return plan;
}

/**
 * A hook limit set by a user, project or explicit file that this hook would pass. Such a limit
 * bounds that file's peers only: the engine is never given it, so it can neither keep a managed
 * hook from registering nor stop the host's own hooks.
 */
function lowerScopeLimit(
  settings: HookSettings,
  plan: SettingsPlan,
  hook: SettingsHook,
): { key: "maxHooksPerEvent" | "maxTotalHooks"; value: number; file: string } | undefined {
  for (const key of ["maxHooksPerEvent", "maxTotalHooks"] as const) {
    const value = settings.options[key];
    if (value === undefined || managedOption(settings, key) !== undefined) continue;
    const count =
      key === "maxTotalHooks"
        ? plan.apply.length
        : plan.apply.filter((h) => h.event === hook.event).length;
    if (count >= value) return { key, value, file: settings.optionSources[key] ?? "settings" };
  }
  return undefined;
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
  // Engine-wide options from user, project and explicit files never reach a managed hook: it
  // runs with the managed files' values or the built-in defaults (a user's defaultTimeout of
  // 1 ms must not time out, and so let through, a managed guard).
  const timeoutFor = (hook: SettingsHook) =>
    hook.scope === "managed"
      ? managedOption(settings, "defaultTimeout")
      : settings.options.defaultTimeout;
  const failBehaviorFor = (hook: SettingsHook) =>
    hook.scope === "managed"
      ? (managedOption(settings, "failBehavior") ?? BUILT_IN_FAIL_BEHAVIOR)
      : settings.options.failBehavior;
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
    const fromSettings = timeoutFor(hook);
    const ctx: SettingsRegistrationContext = {
      matcher: withCondition(hook, {
        cwd: options.projectDir ?? settings.cwd,
        home: settings.home,
      }),
      failBehavior: failBehaviorFor(hook),
      defaultTimeoutMs: fromSettings !== undefined ? Math.ceil(fromSettings) : undefined,
      httpPolicy: httpPolicyFor(settings, hook),
      allowedSecrets: allowedSecretsFor(settings, hook),
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
    if (hook.scope === "project" && settings.project?.trusted && registration) {
      registration = checkedAgainstTrust(registration, hook, settings.project);
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
  // A trusted project hook whose definition or script changed is untrusted; one that fails
  // closed must not become a hole by changing (a guard.sh rewritten to exit 0): it stays, and
  // blocks every firing it matches until the change is reviewed and trusted.
  if (settings.project?.changed) {
    for (const skip of skipped) {
      if (skip.reason !== "untrusted") continue;
      const hook = skip.hook;
      if ((definedFailBehavior(hook.definition) ?? failBehaviorFor(hook)) !== "block") continue;
      const ctx: SettingsRegistrationContext = {
        matcher: withCondition(hook, {
          cwd: options.projectDir ?? settings.cwd,
          home: settings.home,
        }),
        failBehavior: "block",
        defaultTimeoutMs: undefined,
        httpPolicy: {},
      };
      const why = new HookError("UNAVAILABLE", skip.message);
      try {
        register(unavailableStandIn(hook, ctx, why), hook);
        skip.message += "; it fails closed, so every firing it matches blocks";
      } catch {
        // Past the engine's limits: it stays listed as skipped.
      }
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

/**
 * A trusted project hook that checks, before each run, that the project files it runs are
 * still what was trusted; when not, the run fails (naming the path) and the hook's fail
 * behaviour applies: a fail-closed guard blocks.
 */
function checkedAgainstTrust(
  registration: HookRegistration,
  hook: SettingsHook,
  project: NonNullable<HookSettings["project"]>,
): HookRegistration {
  const inner = registration.handler;
  const trusted = project.scripts ?? [];
  return {
    ...registration,
    handler: async (event, ctx) => {
      const changed = await changedSinceTrust(hook, project.dir, trusted);
      if (changed !== undefined) {
        throw new HookError(
          "UNAVAILABLE",
          `${hook.name}: ${changed} changed since the project was trusted; review it and run "a3s-hooks trust"`,
        );
      }
      return inner(event as never, ctx);
    },
  };
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

/**
 * The engine options the settings ask for (`new HookEngine(engineOptionsFromSettings(s))`).
 * Settings files govern settings-file hooks only: a user's or project's `disableAllHooks` (or
 * `enabled: false`) turns their hooks off in `applyHookSettings`, never the engine, so the
 * host's own in-process hooks keep running; only a managed file's may turn the engine off (as
 * Claude Code, where a managed `disableAllHooks` turns every hook off). Hook limits come from
 * managed files only (a lower scope's limit bounds its own hooks, in `planHookSettings`), and so
 * do `defaultTimeout` and `failBehavior`: a lower scope's apply to its own hooks (through
 * `applyHookSettings`), never to the host's or the managed ones. `auditLevel` is passed on
 * from any file: it changes what is recorded, not what a hook decides.
 */
export function engineOptionsFromSettings(settings: HookSettings): HookEngineOptions {
  const out: HookEngineOptions = {};
  if (
    managedOption(settings, "disableAllHooks") === true ||
    managedOption(settings, "enabled") === false
  ) {
    out.enabled = false;
  }
  const perEvent = managedOption(settings, "maxHooksPerEvent");
  const total = managedOption(settings, "maxTotalHooks");
  if (perEvent !== undefined) out.maxHooksPerEvent = perEvent;
  if (total !== undefined) out.maxTotalHooks = total;
  const timeout = managedOption(settings, "defaultTimeout");
  const failBehavior = managedOption(settings, "failBehavior");
  if (timeout !== undefined) out.defaultTimeoutMs = timeout;
  if (failBehavior !== undefined) out.failBehavior = failBehavior;
  if (settings.options.auditLevel !== undefined) out.auditLevel = settings.options.auditLevel;
  return out;
}
