import { HookEngine } from "@a3s-lab/hooks-core";
import {
  type ApplyHookSettingsOptions,
  applyHookSettings,
  engineOptionsFromSettings,
  type SkippedHook,
} from "../settings/apply-hook-settings.js";
import { HOOK_FORMATS } from "../settings/formats/hook-formats.js";
import { hookFingerprint } from "../settings/hook-fingerprint.js";
import type { HookSettings, SettingsHook, SettingsScope } from "../settings/hook-settings.js";
import { displayPath } from "../settings/settings-problem.js";
import {
  type CliIo,
  cliHookOptions,
  loadForCli,
  problemLines,
  type SettingsArgs,
} from "./cli-context.js";
import { describeHook, hookJson, type Where } from "./format.js";

export interface ListArgs extends SettingsArgs {
  json?: boolean;
}

/** The hooks that would run, in execution order, and those that would not (with why). */
export function effectiveHooks(
  settings: HookSettings,
  options: ApplyHookSettingsOptions = {},
): {
  hooks: { hook: SettingsHook; timeout: number; failBehavior: string; priority: number }[];
  skipped: readonly SkippedHook[];
} {
  // Registering spawns nothing; the engine's own ordering and limits decide the answer.
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  const handle = applyHookSettings(engine, settings, options);
  const byId = new Map(handle.applied.map((a) => [a.id, a.hook]));
  const hooks = engine.list().map((info) => ({
    hook: byId.get(info.id)!,
    timeout: info.timeout,
    failBehavior: info.failBehavior,
    priority: info.priority,
  }));
  handle.unregister();
  return { hooks, skipped: handle.skipped };
}

/**
 * `effectiveHooks` in the CLI's host: the model of `A3S_HOOKS_MODEL*`, the configured MCP
 * servers (not started), and `asyncRewake` delivered (`a3s-hooks test` prints what it would
 * wake the model with).
 */
export async function cliEffectiveHooks(
  settings: HookSettings,
  io: CliIo,
  where: Where,
): Promise<ReturnType<typeof effectiveHooks>> {
  const { options, close } = cliHookOptions(settings, io, where);
  try {
    return effectiveHooks(settings, { ...options, onAsyncRewake: () => {} });
  } finally {
    await close();
  }
}

const SCOPES: Record<SettingsScope, string> = {
  managed: "managed policy",
  explicit: "named file",
  project: "project",
  user: "user",
  frontmatter: "skill or agent",
  plugin: "plugin",
};

/** Which scope and file a hook came from, and its `if` condition. */
function originLine(hook: SettingsHook, where: Where): string {
  const condition = hook.if !== undefined ? `; if ${hook.if}` : "";
  const kind = hook.origin ? `${HOOK_FORMATS[hook.origin.format].title} hooks` : "settings";
  const from = hook.plugin ? `plugin ${hook.plugin.id}:` : `${SCOPES[hook.scope]} ${kind}`;
  return `    from ${from} ${displayPath(hook.source, where)}${condition}  (id ${hookFingerprint(hook)})`;
}

function skippedLine(s: SkippedHook, where: Where): string {
  return `  ${describeHook(s.hook, where)}\n${originLine(s.hook, where)}\n    ${s.reason}: ${s.message}`;
}

/** `a3s-hooks list`: the effective hooks in execution order. */
export async function listCommand(args: ListArgs, io: CliIo): Promise<number> {
  const { settings, where } = await loadForCli(args, io);
  const { hooks, skipped } = await cliEffectiveHooks(settings, io, where);
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          hooks: hooks.map((h) => ({
            ...hookJson(h.hook, where),
            ...(h.hook.if !== undefined ? { if: h.hook.if } : {}),
            timeout: h.timeout,
            failBehavior: h.failBehavior,
            priority: h.priority,
          })),
          skipped: skipped.map((s) => ({
            ...hookJson(s.hook, where),
            ...(s.hook.if !== undefined ? { if: s.hook.if } : {}),
            reason: s.reason,
            message: s.message,
          })),
          problems: problemLines(settings, where),
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const out: string[] = [];
  if (hooks.length === 0) out.push("No hooks will run.");
  let event = "";
  for (const h of hooks) {
    if (h.hook.event !== event) {
      event = h.hook.event;
      out.push(`${event}:`);
    }
    const extra = [
      `timeout ${h.timeout / 1000} s`,
      h.failBehavior === "block" ? "fails closed" : "",
    ]
      .filter(Boolean)
      .join(", ");
    out.push(`  ${describeHook(h.hook, where)}  [${extra}]`, originLine(h.hook, where));
  }
  if (skipped.length > 0) {
    out.push("", "Not running:", ...skipped.map((s) => skippedLine(s, where)));
  }
  const problems = problemLines(settings, where);
  if (problems.length > 0) {
    out.push(
      "",
      `${problems.length} problem(s) in the settings; run "a3s-hooks validate" for details.`,
    );
  }
  io.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
