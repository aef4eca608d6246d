import type { FailBehavior } from "@a3s-lab/hooks-core";
import * as z from "zod";

/** The longest timeout a settings-file hook may ask for: one day, in seconds. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** Positive seconds, at most a day. */
export const secondsSchema = z
  .number({ error: "expected a positive number" })
  .positive({ error: "expected a positive number" })
  .max(MAX_TIMEOUT_SECONDS, { error: `expected at most ${MAX_TIMEOUT_SECONDS} seconds (a day)` });

const failBehaviorSchema = z.enum(["continue", "block"], {
  error: 'expected "continue" or "block"',
});

/**
 * The fields every settings-file hook type shares (Claude Code's common fields plus the A3S
 * SDK's `failBehavior`, `priority` and `name`). A type's own shape adds to these.
 */
export const hookCommonShape = {
  if: z
    .string({ error: "expected a permission rule" })
    .max(4096, { error: "expected a rule of at most 4096 characters" })
    .optional()
    .describe(
      'Claude Code\'s permission-rule syntax ("Bash(git *)", "Edit(src/**)"): the hook starts only for tool calls the rule describes. Tool events only.',
    ),
  timeout: secondsSchema
    .optional()
    .describe("Seconds before the hook is cancelled. The default depends on the type."),
  statusMessage: z
    .string({ error: "expected a string" })
    .max(1024, { error: "expected a status message of at most 1024 characters" })
    .optional()
    .describe("What the host shows while the hook runs."),
  once: z
    .boolean({ error: "expected true or false" })
    .optional()
    .describe("Run on the first matching firing only, then remove the hook."),
  async: z
    .boolean({ error: "expected true or false" })
    .optional()
    .describe("Fire and forget: never waited for, never blocks."),
  asyncRewake: z
    .boolean({ error: "expected true or false" })
    .optional()
    .describe(
      "Run in the background (as async does); a block answer (exit code 2) is delivered to the model once the hook ends.",
    ),
  onFailure: failBehaviorSchema
    .optional()
    .describe(
      "Claude Code's name for failBehavior: what a failure or timeout contributes. Default continue.",
    ),
  failBehavior: failBehaviorSchema
    .optional()
    .describe("What a failure or timeout contributes. Default continue."),
  priority: z
    .number({ error: "expected a number" })
    .finite({ error: "expected a finite number" })
    .optional()
    .describe("Lower runs earlier. Default 0."),
  name: z.string().max(256).optional().describe("A name for listings and messages."),
};

/** The fields every settings-file hook type shares. */
export interface HookCommonFields {
  /** Seconds before the hook is cancelled; the default depends on the type. */
  timeout?: number;
  /** Shown by the host while the hook runs (the demo and `a3s-hooks test` print it). */
  statusMessage?: string;
  /** Run on the first matching firing only, then remove the hook (once per engine, so per session). */
  once?: boolean;
  /** Fire and forget: the agent does not wait, and the hook cannot block. */
  async?: boolean;
  /**
   * Run in the background as `async` does; when the hook ends with a block (a command's exit
   * code 2), the reason is handed to the host's `onAsyncRewake` so it can wake the model with it.
   */
  asyncRewake?: boolean;
  /** Claude Code's name for `failBehavior`. */
  onFailure?: FailBehavior;
  /** What a failure or timeout contributes: `continue` (default) or `block`. */
  failBehavior?: FailBehavior;
  /** Lower runs earlier (merged earlier); default 0. */
  priority?: number;
  /** A name for listings and messages. */
  name?: string;
}

/** The fail behaviour a definition asks for: `onFailure` or `failBehavior` (they must agree). */
export function definedFailBehavior(d: HookCommonFields): FailBehavior | undefined {
  // Two spellings that disagree are refused when the file is read; fail closed if one slips by.
  if (d.onFailure !== undefined && d.failBehavior !== undefined && d.onFailure !== d.failBehavior)
    return "block";
  return d.onFailure ?? d.failBehavior;
}

/** What every settings-file hook's registration takes from its definition and the settings. */
export interface CommonRegistrationFields {
  failBehavior?: FailBehavior;
  async?: boolean;
  once?: boolean;
  priority?: number;
  source?: string;
}

/**
 * Set the common fields on a registration the same way for every hook type: the fail
 * behaviour (the hook's `onFailure`/`failBehavior`, else the settings' own), `async` (also for
 * `asyncRewake`, which runs in the background too), `once`, `priority`, and the file it came
 * from. A field the definition leaves out is left out, so the engine's default applies.
 */
export function applyCommonFields<R extends CommonRegistrationFields>(
  registration: R,
  definition: HookCommonFields,
  from: { failBehavior?: FailBehavior | undefined; source?: string | undefined },
): R {
  const failBehavior = definedFailBehavior(definition) ?? from.failBehavior;
  if (failBehavior !== undefined) registration.failBehavior = failBehavior;
  if (definition.async !== undefined || definition.asyncRewake)
    registration.async = definition.async === true || definition.asyncRewake === true;
  if (definition.once !== undefined) registration.once = definition.once;
  if (definition.priority !== undefined) registration.priority = definition.priority;
  if (from.source !== undefined) registration.source = from.source;
  return registration;
}
