import {
  type HookEngine,
  type HookEngineOptions,
  HookError,
  type HookHandle,
} from "@a3s-lab/hooks-core";
import {
  CommandHook,
  type CommandHookOptions,
  type CommandRunReport,
} from "../command/command-hook.js";
import { linearRegex } from "../linear-regex.js";
import { withCondition } from "./hook-condition.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import { allHooksOff, policySkip } from "./managed-settings.js";
import { ifAppliesTo } from "./permission-rule.js";
import { displayPath } from "./settings-problem.js";

/** Why a configured hook is not registered. */
export type SkipReason =
  | "disabled"
  | "managed-only"
  | "untrusted"
  | "condition"
  | "duplicate"
  | "limit"
  | "invalid";

/** A configured hook that does not run, and why. */
export interface SkippedHook {
  hook: SettingsHook;
  reason: SkipReason;
  /** A sentence for people: `same command as hooks.PreToolUse[0].hooks[0] in ~/.claude/settings.json`. */
  message: string;
}

/** A hook that was registered, with its engine id. */
export interface AppliedHook {
  hook: SettingsHook;
  id: string;
}

/** What would be registered, in execution order, and what would not. */
export interface SettingsPlan {
  apply: SettingsHook[];
  skipped: SkippedHook[];
}

/** Options of `applyHookSettings`: how its command hooks run. */
export interface ApplyHookSettingsOptions extends Omit<CommandHookOptions, "onRun"> {
  /** Called after every run of one of these hooks. */
  onRun?: (report: CommandRunReport, hook: SettingsHook) => void;
}

/** The registrations one `applyHookSettings` made; `unregister` removes them all (for reloads). */
export interface SettingsHandle extends Disposable {
  readonly applied: readonly AppliedHook[];
  readonly skipped: readonly SkippedHook[];
  unregister(): void;
}

function dedupKey(hook: SettingsHook): string {
  const d = hook.definition;
  const command = d.command !== undefined ? ["sh", d.command] : ["exec", ...d.args];
  return JSON.stringify([hook.event, hook.matcher ?? "*", hook.if ?? "", command]);
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
        message: `same command as ${earlier.path} in ${displayPath(earlier.source, where)}, which runs instead`,
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
  const { onRun, ...commandOptions } = options;
  const fromSettings = settings.options.defaultTimeout;
  const defaultTimeoutMs =
    commandOptions.defaultTimeoutMs ??
    (fromSettings !== undefined ? Math.ceil(fromSettings) : undefined);
  for (const hook of plan.apply) {
    try {
      const command = new CommandHook(
        { ...hook.definition, name: hook.name },
        {
          ...commandOptions,
          ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}),
          ...(onRun ? { onRun: (report: CommandRunReport) => onRun(report, hook) } : {}),
        },
      );
      const handle = engine.register({
        ...command.registration({
          event: hook.event,
          matcher: withCondition(hook, settings),
          source: hook.source,
          failBehavior: settings.options.failBehavior,
        }),
        // A settings file may come from a cloned repository: its patterns must not be able to
        // stall the agent.
        regex: linearRegex,
      });
      handles.push(handle);
      applied.push({ hook, id: handle.id });
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
  };
  return { applied, skipped, unregister, [Symbol.dispose]: unregister };
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
