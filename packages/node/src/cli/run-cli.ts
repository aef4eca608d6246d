import { claudeCodeEvents, defineEvent, HookError, isHookEventName } from "@a3s-lab/hooks-core";
import { Command, CommanderError } from "commander";
import type { CliIo } from "./cli-context.js";
import { CliError } from "./cli-error.js";
import { listCommand } from "./list-command.js";
import { mcpProxyCommand } from "./mcp-proxy-command.js";
import { testCommand } from "./test-command.js";
import { trustCommand } from "./trust-command.js";
import { validateCommand } from "./validate-command.js";

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * Run the `a3s-hooks` CLI with the given arguments (without `node` and the script) and
 * return its exit code. Output goes to `io`; nothing here calls `process.exit`.
 *
 * @example
 * ```ts
 * const code = await runCli(["test", "PreToolUse", "--tool", "Bash", "--args", '{"command":"ls"}'], {
 *   stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env,
 * });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The CLI checks and tests hooks for any host: Claude Code's events count as known (a host
  // that defined its own event under one of those names keeps its definition).
  for (const definition of Object.values(claudeCodeEvents)) {
    if (!isHookEventName(definition.name)) defineEvent(definition);
  }
  let code = 0;
  // Read from argv, not program.opts(): the catch below needs it when parsing itself throws.
  const debug = argv.includes("--debug");
  const program = new Command("a3s-hooks")
    .description(
      "Check, list, trust and test the command hooks of A3S and Claude Code settings files.",
    )
    .option("--debug", "print stack traces for errors")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`a3s-hooks: ${s.trimEnd()}\nhint: run "a3s-hooks --help"\n`),
    })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);

  const settingsOptions = (command: Command) =>
    command
      .option("--cwd <dir>", "the project directory", ".")
      .option("--settings <file>", "another settings file, read first (repeatable)", collect, [])
      .option(
        "--plugin-dir <dir>",
        "a plugin folder to load (hooks/hooks.json, .mcp.json), trusted (repeatable)",
        collect,
        [],
      )
      .option("--no-defaults", "read only the --settings files, not the default locations");

  settingsOptions(
    program
      .command("validate")
      .description(
        "load every settings file; print the hooks found and every problem (exit 1 on errors)",
      ),
  )
    .option("--json", "print JSON")
    .action(async (options) => {
      code = await validateCommand(options, io);
    });

  settingsOptions(
    program
      .command("list")
      .description("the effective hooks, in execution order, and those that will not run"),
  )
    .option("--json", "print JSON")
    .action(async (options) => {
      code = await listCommand(options, io);
    });

  program
    .command("trust")
    .description("trust the hook definitions of this project's settings files (records their hash)")
    .option("--cwd <dir>", "the project directory", ".")
    .option("--revoke", "forget this project's trust")
    .option("--json", "print JSON")
    .action(async (options) => {
      code = await trustCommand(options, io);
    });

  settingsOptions(
    program
      .command("test")
      .argument("<event>", "the event to fire: PreToolUse, Stop, …")
      .description(
        "fire one event through the configured hooks; exit 0 continue, 2 block, 1 error",
      ),
  )
    .option(
      "--input <file>",
      "event fields as JSON (a file, or - for stdin); Claude Code's stdin shape works too",
    )
    .option("--tool <name>", "the tool name, for tool events")
    .option("--args <json>", "the tool arguments, as a JSON object")
    .option("--json", "print the merged result as JSON")
    .action(async (event: string, options) => {
      code = await testCommand(event, options, io);
    });

  // Listed for --help only: its arguments (the server's command and flags after --) are
  // handed as they are to @a3s-lab/hooks-mcp, which parses them.
  program
    .command("mcp-proxy")
    .description(
      "proxy an MCP server on stdio, running its tool calls through the hooks (needs @a3s-lab/hooks-mcp; see mcp-proxy --help)",
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments();

  try {
    const first = argv.findIndex((a) => a !== "--debug");
    if (argv[first] === "mcp-proxy") return await mcpProxyCommand(argv.slice(first + 1), io);
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they are success to us.
      return error.exitCode === 0 ? 0 : 1;
    }
    io.stderr.write(describeError(error, debug));
    return 1;
  }
}

function describeError(error: unknown, debug: boolean): string {
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
