import { claudeCodeEvents, defineEvent, HookError, isHookEventName } from "@a3s-lab/hooks-core";
import { CliError } from "./cli-error.js";

// What every command needs and `--help` does not: loaded on the first command.

// The CLI checks and tests hooks for any host: Claude Code's events count as known (a host
// that defined its own event under one of those names keeps its definition).
for (const definition of Object.values(claudeCodeEvents)) {
  if (!isHookEventName(definition.name)) defineEvent(definition);
}

/** The lines the CLI prints for an error: a message and a hint, the stack only with `--debug`. */
export function describeError(error: unknown, debug: boolean): string {
  const lines: string[] = [];
  if (error instanceof CliError) {
    lines.push(`a3s-hooks: ${error.message}`);
    if (error.hint) lines.push(`hint: ${error.hint}`);
  } else if (HookError.is(error)) {
    lines.push(`a3s-hooks: ${error.message} (${error.code})`);
  } else {
    lines.push(
      `a3s-hooks: unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!debug) lines.push("hint: run again with --debug and report the stack trace");
  }
  if (debug && error instanceof Error && error.stack) lines.push(error.stack);
  return `${lines.join("\n")}\n`;
}
