import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import type { CliIo } from "./cli-context.js";

// Only commander is loaded up front: `--help`, `--version` and a bare `a3s-hooks` answer without
// loading the engine and its schemas; each command imports what it needs when it runs.

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
  let code = 0;
  // Read from argv, not program.opts(): the catch below needs it when parsing itself throws.
  const debug = argv.includes("--debug");
  const program = new Command("a3s-hooks")
    .description(
      "Check, list, trust and test the command hooks of A3S and Claude Code settings files.",
    )
    .version(packageJson.version, "-V, --version", "print the version")
    .option("--debug", "print stack traces for errors")
    .helpOption("-h, --help", "print this help")
    .addHelpText("after", EXAMPLES)
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
      .option(
        "--format <name>",
        "the format of the --settings files: claude-code, cursor, gemini, copilot, codex, windsurf or kiro (default: told by the path)",
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
      const { validateCommand } = await commandModules(() => import("./validate-command.js"));
      code = await validateCommand(options, io);
    });

  settingsOptions(
    program
      .command("list")
      .description("the effective hooks, in execution order, and those that will not run"),
  )
    .option("--json", "print JSON")
    .action(async (options) => {
      const { listCommand } = await commandModules(() => import("./list-command.js"));
      code = await listCommand(options, io);
    });

  program
    .command("trust")
    .description("trust the hook definitions of this project's settings files (records their hash)")
    .option("--cwd <dir>", "the project directory", ".")
    .option("--hook <id>", "trust only this hook, as it is now (its id from list)")
    .option("--revoke", "forget this project's trust (or, with --hook, this hook's)")
    .option("--json", "print JSON")
    .action(async (options) => {
      const { trustCommand } = await commandModules(() => import("./trust-command.js"));
      code = await trustCommand(options, io);
    });

  for (const action of ["disable", "enable"] as const) {
    settingsOptions(
      program
        .command(action)
        .argument("<id>", "the hook's id, as list shows it")
        .description(
          action === "disable"
            ? "keep one hook from running, without editing its file (any format; not managed hooks)"
            : "let a hook turned off by disable run again",
        ),
    )
      .option("--json", "print JSON")
      .action(async (id: string, options) => {
        const { hookSwitchCommand } = await commandModules(() => import("./hook-command.js"));
        code = await hookSwitchCommand(action, id, options, io);
      });
  }

  program
    .command("convert")
    .argument("[file]", "the hook file (default: the project's file of --from)")
    .description(
      "write a hook file in another agent's format; what cannot be translated is listed (exit 1 unless --allow-lossy)",
    )
    .option("--cwd <dir>", "the project directory", ".")
    .option(
      "--from <format>",
      "claude-code, cursor, gemini, copilot or codex (default: told by the path)",
    )
    .option("--to <format>", "the format to write")
    .option("--out <file>", "write here (never over an existing file) instead of stdout")
    .option("--allow-lossy", "write the nearest translation even when parts are lost")
    .action(async (file: string | undefined, options) => {
      const { convertCommand } = await commandModules(() => import("./convert-command.js"));
      code = await convertCommand(file, options, io);
    });

  const approvals = program
    .command("approvals")
    .description("the deferred tool calls waiting for a person: list, show, approve, deny, serve");
  const storeOption = (command: Command) =>
    command
      .option(
        "--store <location>",
        "the approval store: a folder (embedded) or postgres://… (default $A3S_APPROVALS_STORE or .a3s/approvals)",
      )
      .option("--json", "print JSON");
  const decideOptions = (command: Command) =>
    storeOption(command)
      .option("--by <name>", "who decides (default $USER)")
      .option("--reason <text>", "why, kept with the decision");
  const runApprovals = async (
    action: "list" | "show" | "approve" | "deny" | "serve",
    id: string | undefined,
    options: Record<string, unknown>,
  ) => {
    const { approvalsCommand } = await import("./approvals-command.js");
    code = await approvalsCommand(action, id, options, io);
  };
  storeOption(approvals.command("list").description("pending approvals, oldest first"))
    .option("--all", "decided ones too")
    .option("--session <id>", "only this session's")
    .action((options) => runApprovals("list", undefined, options));
  storeOption(
    approvals.command("show").argument("<id>").description("one approval in full"),
  ).action((id: string, options) => runApprovals("show", id, options));
  decideOptions(approvals.command("approve").argument("<id>").description("let the call run"))
    .option("--input <json>", "run it with this tool input instead (checked by PreToolUse again)")
    .action((id: string, options) => runApprovals("approve", id, options));
  decideOptions(approvals.command("deny").argument("<id>").description("refuse the call")).action(
    (id: string, options) => runApprovals("deny", id, options),
  );
  approvals
    .command("serve")
    .description("the inbox as a web page and JSON API, until SIGINT or SIGTERM")
    .option(
      "--store <location>",
      "the approval store: a folder (embedded; agents cannot park while the inbox holds it) or postgres://…",
    )
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option("--port <port>", "the port (0: any free one)", "0")
    .option("--token <token>", "the bearer token (default $A3S_TOKEN, else a new random one)")
    .option(
      "--deciders <file>",
      'per-person tokens, a JSON file [{"name","token"}]: the decider\'s name is the token\'s (no shared token unless --token or $A3S_TOKEN)',
    )
    .action((options) => runApprovals("serve", undefined, options));

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
      const { testCommand } = await commandModules(() => import("./test-command.js"));
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
    // A bare `a3s-hooks` is a question about what it does, not a mistake.
    if (first === -1) {
      program.outputHelp();
      return 0;
    }
    if (argv[first] === "mcp-proxy") {
      const { mcpProxyCommand } = await commandModules(() => import("./mcp-proxy-command.js"));
      return await mcpProxyCommand(argv.slice(first + 1), io);
    }
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they are success to us.
      return error.exitCode === 0 ? 0 : 1;
    }
    const { describeError } = await import("./cli-runtime.js");
    io.stderr.write(describeError(error, debug));
    return 1;
  }
}

const EXAMPLES = `
Examples:
  $ a3s-hooks validate                       check every settings file of this project
  $ a3s-hooks list --json                    the hooks that will run, in order
  $ a3s-hooks test PreToolUse --tool Bash --args '{"command":"rm -rf /"}'
                                             fire one event; exit 2 when a hook blocks
  $ a3s-hooks test Stop --settings hooks.json --no-defaults
                                             test one file alone
  $ a3s-hooks trust                          trust this project's hook definitions
  $ a3s-hooks disable 1a2b3c4d5e6f           keep one hook (its id from list) from running`;

/**
 * A command's module, loaded with the runtime every command shares (which makes Claude Code's
 * events known). Both are bundled into the built CLI, so the engine loads from one build only.
 */
async function commandModules<T>(load: () => Promise<T>): Promise<T> {
  await import("./cli-runtime.js");
  return load();
}
