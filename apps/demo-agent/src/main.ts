import { realpath } from "node:fs/promises";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { HookError } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import { createReadlineAsker, runChat } from "./chat-command.js";
import { type CliArgs, type CommandName, parseCliArgs, USAGE } from "./cli-args.js";
import { createModel } from "./create-model.js";
import { type HookSources, setupDemoAgent } from "./demo-agent-setup.js";
import { lazyParker, openStore, storeLocation, waitingLines } from "./demo-approvals.js";
import { onFiring } from "./firings.js";
import { runResume } from "./resume-command.js";
import { runScenario } from "./run-command.js";
import { runServe } from "./serve-command.js";
import { createStyle, shouldColor } from "./style.js";
import { Transcript } from "./transcript.js";

/** The process the CLI talks to; tests pass their own streams. */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface MainOptions {
  /**
   * Where hooks beyond the in-process ones come from, per command; the CLI passes the Node
   * package's settings files and skill frontmatter.
   */
  hookSources?: ((command: CommandName) => HookSources) | undefined;
  /** Ends `serve` (the CLI aborts it on SIGINT and SIGTERM). */
  stop?: AbortSignal | undefined;
}

function lineWriter(stream: Writable): (line: string) => void {
  return (line) => void stream.write(`${line}\n`);
}

/**
 * The `a3s-demo-agent` command line. Resolves with the exit code: 0 success, 1 failure,
 * 2 usage error.
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: MainOptions = {},
): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv, io.env);
  } catch (error) {
    io.stderr.write(`error: ${(error as Error).message}\nhint: a3s-demo-agent --help\n`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // A settings file named on the command line is where the user is, whatever the workdir.
  args = { ...args, settings: args.settings.map((file) => path.resolve(io.cwd, file)) };
  const color = args.color ?? shouldColor(io.stdout, io.env);
  const write = lineWriter(io.stdout);
  const hookSources = options.hookSources?.(args.command);
  try {
    switch (args.command) {
      case "run": {
        const where = storeLocation(args.store, io.env, io.cwd);
        const parker = lazyParker(() => openStore(where, { create: true }));
        const style = createStyle(color);
        const result = await runScenario({
          approvals: {
            park: parker.park,
            waitingLines: (parked) => waitingLines(parked, where, style),
          },
          ...(args.prompts.length > 0
            ? { steps: args.prompts.map((prompt, i) => ({ caption: `Prompt ${i + 1}`, prompt })) }
            : {}),
          write,
          color,
          workdir: args.workdir,
          keep: args.keep,
          auditFile: args.audit,
          eventsFile: args.events,
          settingsFiles: args.settings,
          home: io.env.HOME,
          hookSources,
        }).finally(() => parker.close());
        // Only the whole scenario fires every event; a parked call or prompts of your own need not.
        const missing =
          result.parked === undefined && args.prompts.length === 0 ? result.tally.missing() : [];
        if (missing.length > 0) {
          io.stderr.write(`error: these events never fired: ${missing.join(", ")}\n`);
          return 1;
        }
        return 0;
      }
      case "chat":
        return await chat(args, io, color, hookSources);
      case "resume":
        return await runResume({
          sessionId: args.session as string,
          store: storeLocation(args.store, io.env, io.cwd),
          wait: args.wait,
          approvalId: args.approval,
          write,
          color,
          settingsFiles: args.settings,
          auditFile: args.audit,
          eventsFile: args.events,
          home: io.env.HOME,
          hookSources,
          model: createModel(args.model, io.env),
          permission: args.permission === "allow" ? "allow" : "deny",
          signal: options.stop,
        });
      case "serve":
        return await runServe(
          args,
          io,
          hookSources,
          options.stop ?? new AbortController().signal,
          color,
        );
    }
  } catch (error) {
    const e = HookError.is(error) ? error : AgentError.from(error);
    io.stderr.write(`error: ${e.message}\n`);
    if (args.debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    else io.stderr.write("hint: run with --debug for details\n");
    return 1;
  }
}

async function chat(
  args: CliArgs,
  io: CliIo,
  color: boolean,
  hookSources: HookSources | undefined,
): Promise<number> {
  const style = createStyle(color);
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const workdir = await realpath(args.workdir ?? io.cwd);
  const asker = createReadlineAsker();
  const mode = args.permission ?? (interactive ? "ask" : "deny");
  const permission = { defaultAnswer: mode === "ask" ? asker : mode };
  const where = storeLocation(args.store, io.env, io.cwd);
  const parker = lazyParker(() => openStore(where, { create: true }));
  const demo = await setupDemoAgent({
    workdir,
    park: parker.park,
    model: createModel(args.model, io.env),
    permission,
    auditFile: args.audit,
    eventsFile: args.events,
    settingsFiles: args.settings,
    home: io.env.HOME,
    hookSources,
    watchSettings: args.watch
      ? (line: string) => io.stdout.write(`${style.dim(line)}\n`)
      : undefined,
  });
  const transcript = new Transcript(style, lineWriter(io.stdout));
  const off = onFiring(demo.engine, (f) => transcript.render(f));
  try {
    for (const message of demo.messages) io.stdout.write(`${style.yellow(`! ${message}`)}\n`);
    await runChat({
      agent: demo.agent,
      workdir,
      input: io.stdin,
      output: io.stdout,
      write: lineWriter(io.stdout),
      style,
      interactive,
      asker,
      waitingLines: (parked) => waitingLines(parked, where, style),
    });
    return 0;
  } finally {
    off();
    demo.close();
    await parker.close();
  }
}
