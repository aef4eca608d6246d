import type { HookEvent, Matcher } from "@a3s-lab/hooks-core";
import { compileMatcher } from "@a3s-lab/hooks-core/internal";
import { linearRegex } from "../support/linear-regex.js";
import { HOOK_FORMATS } from "./formats/hook-formats.js";
import type { SettingsHook } from "./hook-settings.js";
import { compilePermissionRule } from "./permission-rule.js";

/**
 * The matcher to register a settings hook with: its own, and, when it has an `if` condition,
 * that too, so a tool call the rule does not describe never starts the hook (no process, no
 * request). Paths in the rule are relative to `where.cwd` (the project directory). A rule that
 * does not compile (settings built by hand; loaded ones were checked) is left out: the hook
 * then runs on every call its matcher takes, as it would without the condition.
 */
export function withCondition(
  hook: SettingsHook,
  where: { cwd?: string | undefined; home?: string | undefined },
): Matcher | undefined {
  const own = hook.origin && HOOK_FORMATS[hook.origin.format].matcher?.(hook.origin);
  if (own) {
    // Another agent's matcher, tested against that agent's tool names.
    const implied = hook.matcher;
    if (implied === undefined) return own;
    const base = compileMatcher(hook.event, implied, [hook.path, "matcher"], {
      regex: linearRegex,
    });
    return base === null ? own : (event: HookEvent) => base(event) && own(event);
  }
  if (hook.if === undefined) return hook.matcher;
  let condition: (event: HookEvent) => boolean;
  let matcher: ((event: HookEvent) => boolean) | null;
  try {
    condition = compilePermissionRule(
      hook.if,
      {
        projectDir: where.cwd ?? process.cwd(),
        ...(where.home !== undefined ? { home: where.home } : {}),
      },
      `${hook.path}.if`,
    );
    matcher = compileMatcher(hook.event, hook.matcher, [hook.path, "matcher"], {
      regex: linearRegex,
    });
  } catch {
    // A bad matcher is refused where the hook is registered, with its own message.
    return hook.matcher;
  }
  return matcher === null
    ? (event: HookEvent) => condition(event)
    : (event: HookEvent) => matcher(event) && condition(event);
}
