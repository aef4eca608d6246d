import type { HookError, HookEvent, HookResponse } from "@a3s-lab/hooks-core";
import { type HookInputOptions, toHookInput } from "./hook-input.js";
import { interpretResult, type SpawnResult } from "./interpret-result.js";

/**
 * How a command hook talks to its process: what it writes on stdin for an event, and how it
 * reads what the process left (exit code, stdout, stderr) as one of our answers. Claude Code's
 * protocol is the default; each agent's hook-file format brings its own, so a script written for
 * that agent receives what the agent would send and is understood as the agent would understand
 * it.
 */
export interface HookDialect {
  /** The stdin object for one firing. */
  input(event: HookEvent, options: HookInputOptions): Record<string, unknown>;
  /** The answer of a finished process, or a `HookError` saying why the hook failed. */
  read(
    result: SpawnResult,
    event: HookEvent,
    limits: { timeout: number; maxOutputBytes: number },
  ): HookResponse | HookError;
}

/** Claude Code's protocol: its stdin fields, exit code 2 blocks, JSON on stdout in any dialect. */
export const claudeCodeDialect: HookDialect = { input: toHookInput, read: interpretResult };
