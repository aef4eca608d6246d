import {
  type ClaudeCodeEventMap,
  claudeCodeEvents,
  defineEvent,
  type HookEventName,
  hookEventNames,
} from "@a3s-lab/hooks-core";

/**
 * Claude Code's events beyond the built-in twenty that the demo fires, each where it belongs:
 * - `InstructionsLoaded`: a session starts and reads the working directory's CLAUDE.md (or
 *   AGENTS.md) into its context
 * - `CwdChanged`: a Bash call that is just `cd DIR` moves the session's shell to DIR
 * - `FileChanged`: the agent's Write or Edit changed a file a FileChanged hook watches (its
 *   matcher names the files: `.env|.envrc`)
 * - `ConfigChange`: a settings file changed while the agent runs (before the reload)
 * - `StopFailure`: a turn ended because the model call failed
 */
export const DEMO_CLAUDE_CODE_EVENTS = [
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "ConfigChange",
  "StopFailure",
] as const satisfies readonly (keyof ClaudeCodeEventMap)[];

declare module "@a3s-lab/hooks-core" {
  interface HookEventMap
    extends Pick<ClaudeCodeEventMap, (typeof DEMO_CLAUDE_CODE_EVENTS)[number]> {}
}

/** Add the demo's Claude Code events to the catalogue (again is harmless). */
export function defineDemoEvents(): void {
  for (const name of DEMO_CLAUDE_CODE_EVENTS) defineEvent(claudeCodeEvents[name]);
}

/** The events `run` must see fire: the built-in twenty and the demo's Claude Code ones. */
export function demoEventNames(): HookEventName[] {
  defineDemoEvents();
  const builtin = hookEventNames.filter(
    (n) => !(n in claudeCodeEvents) || (DEMO_CLAUDE_CODE_EVENTS as readonly string[]).includes(n),
  );
  return [...new Set([...builtin, ...DEMO_CLAUDE_CODE_EVENTS])];
}
