import { HookError, type HookEvent } from "@a3s-lab/hooks-core";
import { type CompiledTemplate, compileTemplate } from "@a3s-lab/hooks-core/internal";
import { checkShellTemplate, shellEscaper, shellQuote } from "../../shell/index.js";
import { type CommandHookDefinition, describeCommand } from "./command-definition.js";
import { TEMPLATE_VARIABLES, templateVariables } from "./template-variables.js";

/** What to spawn for one event. */
export interface RenderedCommand {
  file: string;
  args: string[];
  /** The command as a person reads it: the shell source after substitution, or the argv. */
  shown: string;
  /** Values that were changed on the way in (NUL bytes removed, long values cut). */
  notes: string[];
}

/**
 * Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN) with E2BIG, and a hook
 * that cannot start contributes its fail behaviour: a value must never be able to do that. Kept
 * well under the limit, and under a total for all arguments (ARG_MAX is shared with the
 * environment).
 */
const MAX_ARG_BYTES = 128 * 1024 - 1024;
const MAX_ARGV_BYTES = 1024 * 1024;
/** The most bytes one UTF-16 unit of a value can take once quoted: `'` becomes `'\''`. */
const QUOTED_UNIT_BYTES = 4;

const emptyVariables = Object.fromEntries(Object.keys(TEMPLATE_VARIABLES).map((k) => [k, ""]));

function checkVariables(template: CompiledTemplate, where: string): void {
  for (const name of template.variables) {
    const root = name.split(".")[0]!;
    if (!Object.hasOwn(TEMPLATE_VARIABLES, root)) {
      throw new HookError(
        "TEMPLATE_ERROR",
        `${where}: unknown variable {{${name}}}; known variables: ${Object.keys(TEMPLATE_VARIABLES).join(", ")}`,
        { details: { variable: name } },
      );
    }
  }
}

/** Remove NUL bytes and cut huge values, noting both: argv and env cannot hold NUL. */
function sanitizer(limit: number, notes: string[]): (value: string, name: string) => string {
  return (value, name) => {
    let out = value;
    if (out.includes("\0")) {
      out = out.replaceAll("\0", "");
      notes.push(`{{${name}}}: removed NUL bytes`);
    }
    if (out.length > limit) {
      notes.push(`{{${name}}}: cut to ${limit} of ${out.length} characters`);
      out = out.slice(0, limit);
    }
    return out;
  };
}

/**
 * The exec form as the shell source that would run the same argv (each literal part quoted), so
 * the shell form's checks judge its placeholders: a runner (`["env", "{{v}}"]` lets the value
 * pick the program) or a shell's `-c` code (`["bash", "-c", "eval \"$1\"", "_", "{{v}}"]`) is
 * refused the same way. Throws `TEMPLATE_ERROR`.
 */
function checkExecTemplate(args: readonly string[]): void {
  const source = args
    .map(
      (arg) =>
        arg
          .split(/(\{\{[^{}]*\}\})/)
          .map((part, i) => (i % 2 === 1 || part === "" ? part : shellQuote(part)))
          .join("") || "''",
    )
    .join(" ");
  try {
    compileTemplate(source).render(emptyVariables, shellEscaper);
    checkShellTemplate(source);
  } catch (error) {
    if (!HookError.is(error, "TEMPLATE_ERROR")) throw error;
    throw new HookError("TEMPLATE_ERROR", `args: ${error.message}`, { details: error.details });
  }
}

/**
 * A command definition compiled once: its `{{variables}}` checked (known names, a spot where
 * quoting is safe, none in the program name) and rendered per event, shell-quoted in the
 * `command` form and as plain arguments in the `args` form.
 */
export class CommandTemplate {
  readonly #definition: CommandHookDefinition;
  readonly #template: CompiledTemplate | undefined;
  readonly #argTemplates: (CompiledTemplate | undefined)[] | undefined;

  /** Throws `TEMPLATE_ERROR` naming the variable and why. */
  constructor(definition: CommandHookDefinition) {
    this.#definition = definition;
    if (definition.command !== undefined) {
      if (definition.command.includes("{{")) {
        this.#template = compileTemplate(definition.command);
        checkVariables(this.#template, "command");
        // Render once with empty values: a placeholder no quoting can protect fails now, not per event.
        this.#template.render(emptyVariables, shellEscaper);
        checkShellTemplate(definition.command);
      }
      return;
    }
    this.#argTemplates = definition.args.map((arg, i) => {
      if (!arg.includes("{{")) return undefined;
      const template = compileTemplate(arg);
      checkVariables(template, `args[${i}]`);
      if (i === 0 && template.variables.length > 0) {
        throw new HookError(
          "TEMPLATE_ERROR",
          "args[0]: the program name cannot contain {{variables}}",
        );
      }
      return template;
    });
    if (this.#argTemplates.some(Boolean)) checkExecTemplate(definition.args);
  }

  /**
   * What to spawn for this event. Values are cut to `valueLimit` characters, and further when
   * the command line would otherwise be too long to start (noted either way).
   */
  render(
    event: HookEvent,
    options: { cwd: string; shell: string; valueLimit: number },
  ): RenderedCommand {
    const first = this.#render(event, options, options.valueLimit);
    const sizes = [first.file, ...first.args].map((a) => Buffer.byteLength(a));
    if (
      sizes.every((n) => n <= MAX_ARG_BYTES) &&
      sizes.reduce((a, b) => a + b, 0) <= MAX_ARGV_BYTES
    ) {
      return first;
    }
    return this.#render(event, options, Math.min(options.valueLimit, this.#fittingLimit()));
  }

  /** A value limit under which no rendering can exceed the command line limits. */
  #fittingLimit(): number {
    const d = this.#definition;
    const sources = d.command !== undefined ? [d.command] : d.args;
    let limit = Number.POSITIVE_INFINITY;
    let literal = 0;
    let placeholders = 0;
    for (const [i, source] of sources.entries()) {
      const bytes = Buffer.byteLength(source);
      const count = (d.command !== undefined ? this.#template : this.#argTemplates?.[i])?.variables
        .length;
      literal += bytes;
      if (!count) continue;
      placeholders += count;
      limit = Math.min(limit, (MAX_ARG_BYTES - bytes) / (count * QUOTED_UNIT_BYTES));
    }
    const total = (MAX_ARGV_BYTES - literal) / (Math.max(placeholders, 1) * QUOTED_UNIT_BYTES);
    return Math.max(0, Math.floor(Math.min(limit, total)));
  }

  #render(
    event: HookEvent,
    options: { cwd: string; shell: string },
    valueLimit: number,
  ): RenderedCommand {
    const notes: string[] = [];
    const sanitize = sanitizer(valueLimit, notes);
    const d = this.#definition;
    if (d.command !== undefined) {
      const command = this.#template
        ? this.#template.render(templateVariables(event, options.cwd), (value, ctx) =>
            shellEscaper(sanitize(value, ctx.name), ctx),
          )
        : d.command;
      return { file: options.shell, args: ["-c", command], shown: command, notes };
    }
    const vars = this.#argTemplates?.some(Boolean)
      ? templateVariables(event, options.cwd)
      : undefined;
    const argv = d.args.map((arg, i) => {
      const template = this.#argTemplates?.[i];
      return template && vars
        ? template.render(vars, (value, ctx) => sanitize(value, ctx.name))
        : arg;
    });
    const [file, ...args] = argv as [string, ...string[]];
    return { file, args, shown: describeCommand({ args: argv as [string, ...string[]] }), notes };
  }
}
