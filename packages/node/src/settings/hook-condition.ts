import type { HookEvent, Matcher, ToolMatcher } from "@a3s-lab/hooks-core";
import { compileMatcher } from "@a3s-lab/hooks-core/internal";
import { linearRegex } from "../linear-regex.js";
import type { HookSettings, SettingsHook } from "./hook-settings.js";
import { compilePermissionRule } from "./permission-rule.js";

/**
 * The matcher to register a settings hook with: its own, and, when it has an `if` condition,
 * that too, so a tool call the rule does not describe never starts the hook (no process, no
 * request). Throws `INVALID_CONFIG` / `INVALID_PATTERN` for a rule or matcher that does not
 * compile.
 */
export function withCondition(
  hook: SettingsHook,
  settings: Pick<HookSettings, "cwd" | "home">,
): string | ToolMatcher | Matcher | undefined {
  if (hook.if === undefined) return hook.matcher;
  const condition = compilePermissionRule(
    hook.if,
    {
      projectDir: settings.cwd ?? process.cwd(),
      ...(settings.home !== undefined ? { home: settings.home } : {}),
    },
    `${hook.path}.if`,
  );
  const matcher = compileMatcher(hook.event, hook.matcher, [hook.path, "matcher"], {
    regex: linearRegex,
  });
  return matcher === null
    ? (event: HookEvent) => condition(event)
    : (event: HookEvent) => matcher(event) && condition(event);
}
