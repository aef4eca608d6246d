import type { FailBehavior } from "@a3s-lab/hooks-core";
import { z } from "zod";

/** The longest timeout a command hook may ask for: one day, in seconds. */
export const MAX_TIMEOUT_SECONDS = 86_400;

interface CommandHookCommon {
  /** Claude Code's hook type. Only `command` is run; left out, `command` is assumed. */
  type?: "command";
  /** Seconds before the process group is killed (Claude Code's unit). Default 60. */
  timeout?: number;
  /** Extra environment variables for the process. */
  env?: Record<string, string>;
  /** Working directory; relative paths are resolved against the project directory. */
  cwd?: string;
  /** What a failure or timeout contributes: `continue` (default) or `block`. */
  failBehavior?: FailBehavior;
  /** Fire and forget: the agent does not wait, and the hook cannot block. */
  async?: boolean;
  /** Lower runs earlier (merged earlier); default 0. */
  priority?: number;
  /** A name for listings and messages. */
  name?: string;
}

/** A shell command, run with `/bin/sh -c`. `{{variables}}` are substituted shell-quoted. */
export interface ShellCommandDefinition extends CommandHookCommon {
  command: string;
  args?: never;
}

/** A program and its arguments, run without a shell. `{{variables}}` are substituted as-is. */
export interface ExecCommandDefinition extends CommandHookCommon {
  args: readonly [string, ...string[]];
  command?: never;
}

/** One command hook: the shell form (`command`) or the exec form (`args`). */
export type CommandHookDefinition = ShellCommandDefinition | ExecCommandDefinition;

/** A string without NUL bytes, which argv, env and paths cannot hold; `what` names it in errors. */
export const noNul = (what: string) =>
  z.string().refine((s) => !s.includes("\0"), { error: `expected ${what} without NUL bytes` });

/** Positive seconds, at most a day. */
export const secondsSchema = z
  .number({ error: "expected a positive number" })
  .positive({ error: "expected a positive number" })
  .max(MAX_TIMEOUT_SECONDS, { error: `expected at most ${MAX_TIMEOUT_SECONDS} seconds (a day)` });

/** The fields of a command hook, shared by every settings shape. */
export const commandHookShape = {
  type: z.literal("command", { error: 'expected "command"' }).optional(),
  command: noNul("a command")
    .min(1, { error: "expected a non-empty command" })
    .max(65_536, { error: "expected a command of at most 65536 characters" })
    .optional()
    .describe("A shell command, run with /bin/sh -c. {{variables}} are substituted shell-quoted."),
  args: z
    .array(noNul("an argument"), { error: "expected an array of strings" })
    .min(1, { error: "expected at least the program name" })
    .max(1024)
    .optional()
    .describe("A program and its arguments, run without a shell (exec form)."),
  timeout: secondsSchema.optional().describe("Seconds before the hook is killed. Default 60."),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name" }),
      noNul("a value"),
      { error: "expected an object of string values" },
    )
    .optional()
    .describe("Extra environment variables."),
  cwd: noNul("a path").optional().describe("Working directory, relative to the project directory."),
  failBehavior: z
    .enum(["continue", "block"], { error: 'expected "continue" or "block"' })
    .optional()
    .describe("What a failure or timeout contributes. Default continue."),
  async: z
    .boolean({ error: "expected true or false" })
    .optional()
    .describe("Fire and forget: never waited for, never blocks."),
  priority: z
    .number({ error: "expected a number" })
    .finite({ error: "expected a finite number" })
    .optional()
    .describe("Lower runs earlier. Default 0."),
  name: z.string().max(256).optional().describe("A name for listings and messages."),
};

/** Exactly one of `command` and `args`. */
export const oneCommandForm = (value: { command?: unknown; args?: unknown }) =>
  (value.command === undefined) !== (value.args === undefined);
export const oneCommandFormMessage =
  'expected either "command" (a shell command) or "args" (a program and its arguments), not both';

/** A command hook definition as `createCommandHook` takes it. */
export const commandHookDefinitionSchema = z
  .object(commandHookShape)
  .refine(oneCommandForm, { error: oneCommandFormMessage });

/** A readable one-line form of a definition, for listings. */
export function describeCommand(definition: CommandHookDefinition): string {
  if (definition.command !== undefined) return definition.command;
  return definition.args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}
