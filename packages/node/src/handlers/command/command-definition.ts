import * as z from "zod";
import { type HookCommonFields, hookCommonShape } from "../hook-common.js";

export { MAX_TIMEOUT_SECONDS, secondsSchema } from "../hook-common.js";

interface CommandHookCommon extends HookCommonFields {
  /** Claude Code's hook type; left out, `command` is assumed. */
  type?: "command";
  /** Seconds before the process group is killed (Claude Code's unit). Default 60. */
  timeout?: number;
  /** Extra environment variables for the process. */
  env?: Record<string, string>;
  /** Working directory; relative paths are resolved against the project directory. */
  cwd?: string;
  /**
   * Claude Code's shell choice for the `command` form: `bash` (the default, as in Claude Code)
   * runs it with bash even where the host's `shell` option names another. `powershell` is
   * refused: `{{variables}}` are quoted for POSIX shells only.
   */
  shell?: "bash" | "powershell";
}

/**
 * A shell command, run with `bash -c` (or the host's `shell` option). `{{variables}}` are
 * substituted shell-quoted.
 */
export interface ShellCommandDefinition extends CommandHookCommon {
  /** The command line, run by the shell. */
  command: string;
  /** Not in the shell form: give `args` instead of `command` to run without a shell. */
  args?: never;
}

/** A program and its arguments, run without a shell. `{{variables}}` are substituted as-is. */
export interface ExecCommandDefinition extends CommandHookCommon {
  /** The program, then its arguments; no shell is involved. */
  args: readonly [string, ...string[]];
  /** Not in the exec form: give `command` instead of `args` to run through a shell. */
  command?: never;
}

/** One command hook: the shell form (`command`) or the exec form (`args`). */
export type CommandHookDefinition = ShellCommandDefinition | ExecCommandDefinition;

/** A string without NUL bytes, which argv, env and paths cannot hold; `what` names it in errors. */
export const noNul = (what: string) =>
  z.string().refine((s) => !s.includes("\0"), { error: `expected ${what} without NUL bytes` });

/** The fields of a command hook, shared by every settings shape. */
export const commandHookShape = {
  ...hookCommonShape,
  type: z.literal("command", { error: 'expected "command"' }).optional(),
  command: noNul("a command")
    .min(1, { error: "expected a non-empty command" })
    .max(65_536, { error: "expected a command of at most 65536 characters" })
    .optional()
    .describe("A shell command, run with bash -c. {{variables}} are substituted shell-quoted."),
  args: z
    .array(noNul("an argument"), { error: "expected an array of strings" })
    .min(1, { error: "expected at least the program name" })
    .max(1024)
    .optional()
    .describe("A program and its arguments, run without a shell (exec form)."),
  timeout: hookCommonShape.timeout.describe("Seconds before the hook is killed. Default 60."),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name" }),
      noNul("a value"),
      { error: "expected an object of string values" },
    )
    .optional()
    .describe("Extra environment variables."),
  cwd: noNul("a path").optional().describe("Working directory, relative to the project directory."),
  shell: z
    .enum(["bash", "powershell"], { error: 'expected "bash" or "powershell"' })
    .optional()
    .describe('The shell for the command form: "bash" (powershell is refused).'),
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
