import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  type FailBehavior,
  type HookContext,
  HookError,
  type HookEvent,
  type HookEventName,
  type HookEventNameInput,
  type HookHandler,
  type HookRegistration,
  type HookResponse,
  type Matcher,
} from "@a3s-lab/hooks-core";
import { renamedOption, validate } from "@a3s-lab/hooks-core/internal";
import * as z from "zod";
import { commandTraceparent } from "../../otel/trace-context.js";
import { withoutHostSecrets } from "../../support/host-secrets.js";
import { applyCommonFields } from "../hook-common.js";
import { claudeCodeDialect, type HookDialect } from "../hook-dialect.js";
import {
  type CommandHookDefinition,
  commandHookDefinitionSchema,
  describeCommand,
} from "./command-definition.js";
import { CommandTemplate, type RenderedCommand } from "./command-template.js";
import { type SpawnResult, spawnCommand } from "./spawn-command.js";
import { spillOversizedOutput } from "./spill-output.js";

/** How command hooks run: shared by every hook made with the same options. */
export interface CommandHookOptions {
  /** The project root, in `A3S_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`. Default `process.cwd()`. */
  projectDir?: string;
  /** Where hooks run when their definition gives no `cwd`. Default the project directory. */
  cwd?: string;
  /**
   * The environment hooks start from. Default `process.env`. The host's secrets in it
   * (`HOST_SECRET_VARIABLES`: `A3S_TOKEN`, the model keys) are left out unless `allowedSecrets`
   * names them. `SHLVL` is at least 1, so bash never runs the user's `~/.bashrc` first.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Host secrets (names from `HOST_SECRET_VARIABLES`) these hooks still inherit. Default none:
   * a hook's stderr becomes the reason the model reads, so a careless hook would hand it over.
   */
  allowedSecrets?: readonly string[];
  /**
   * Bytes kept of each of stdout and stderr; the rest is read and discarded. Default 1 MiB.
   * On an event that can block, exit 0 with stdout over the cap is a block (an answer that
   * cannot be read whole is never taken for a continue), unless what was kept is plain text.
   */
  maxOutputBytes?: number;
  /** Milliseconds, for definitions without `timeout` (which is in seconds). Default 60 000. */
  defaultTimeoutMs?: number;
  /**
   * Milliseconds between SIGTERM and SIGKILL when a hook's process group is stopped: on timeout,
   * on abort, and when the hook exits (except `async` hooks), so its `cmd &` children end with
   * it. A child that called `setsid` has left the group and is not reached. Default 1000.
   */
  killGraceMs?: number;
  /** Milliseconds to wait for output after the hook exited, when a background child holds it. Default 250. */
  drainTimeoutMs?: number;
  /**
   * The shell for the `command` form. Default `bash` (found on `PATH`), as in Claude Code, whose
   * command hooks run under bash unless they say otherwise. Template values are quoted by POSIX
   * `sh` and bash rules (and checked against both), so it must be `sh`, `bash`, `dash`, `ksh`,
   * `zsh`, `mksh` or `ash` (a path or a name, judged by its last part); anything else is
   * refused with `INVALID_CONFIG`, since fish or csh read quotes differently and would let a
   * value run.
   */
  shell?: string;
  /** Characters kept of one `{{variable}}` value; longer values are cut. Default 16 384. */
  templateValueLimit?: number;
  /** Called after every run with everything about it (for CLIs, logs and tests). */
  onRun?: (report: CommandRunReport) => void;
  /**
   * The session's env file for an event (`SessionEnvFiles.pathFor`): when it gives a path, the
   * hook gets it in `CLAUDE_ENV_FILE` (and `A3S_ENV_FILE`). A `CLAUDE_ENV_FILE` inherited from
   * the agent's own environment is never passed on: it belongs to another session.
   */
  envFile?: (event: HookEvent) => string | undefined;
}

/** `CommandHook`'s options: the shared ones, and the protocol of this one hook. */
export interface CommandHookRunOptions extends CommandHookOptions {
  /**
   * What the process reads on stdin and how its answer is read. Default Claude Code's protocol;
   * a hook from another agent's file (Cursor, Gemini CLI) speaks that agent's.
   */
  dialect?: HookDialect;
}

/** Everything about one run of a command hook. */
export interface CommandRunReport {
  /** The hook's name (its definition's `name`, or the command). */
  name: string;
  /** The event it ran for. */
  event: HookEventName;
  /** The firing it ran for. */
  eventId: string;
  /** What ran: the shell command after substitution, or the argv. */
  command: string;
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did (a timeout kills the process group). */
  signal: NodeJS.Signals | null;
  /** Milliseconds. */
  duration: number;
  /** What it printed on stdout, up to the output limit. */
  stdout: string;
  /** What it printed on stderr, up to the output limit. */
  stderr: string;
  /** Bytes it wrote to stdout in all, kept or not. */
  stdoutBytes: number;
  /** Bytes it wrote to stderr in all, kept or not. */
  stderrBytes: number;
  /** Which stream was cut at the output limit (`maxOutputBytes`, 1 MiB by default). */
  truncated: { stdout: boolean; stderr: boolean };
  /** True when it ran past its timeout and was killed. */
  timedOut: boolean;
  /** True when the firing was cancelled and it was killed. */
  aborted: boolean;
  /** The hook's answer, when it gave one. */
  response?: HookResponse;
  /** Why the hook failed, when it did. */
  error?: HookError;
  /** Things worth knowing that did not fail the run: truncated values, removed NUL bytes. */
  notes: string[];
  /** The definition's `statusMessage`: what the host shows while the hook runs. */
  statusMessage?: string;
}

/** What `commandHookRegistration` needs besides the command definition. */
export interface CommandRegistrationSpec<N extends HookEventNameInput = HookEventNameInput> {
  /** The event to hook. */
  event: N;
  /** Which firings to run for; every firing when left out. */
  matcher?: Matcher | undefined;
  /** Where the definition came from (`settings:/path`), for listings. */
  source?: string | undefined;
  /** The hook's id; one is made when left out. */
  id?: string | undefined;
  /** Used when the definition has no `failBehavior`. */
  failBehavior?: FailBehavior | undefined;
}

const DEFAULTS = {
  maxOutputBytes: 1024 * 1024,
  defaultTimeoutMs: 60_000,
  killGraceMs: 1000,
  drainTimeoutMs: 250,
  shell: "bash",
  templateValueLimit: 16_384,
};

/** Characters of the session id kept in `A3S_SESSION_ID`; stdin always has all of it. */
const MAX_SESSION_ID_ENV = 4096;

/** Extra time the handler gives the engine to time a hook out first (so it reports `timeout`). */
const ENGINE_SLACK = 500;

/**
 * Shells whose quoting `{{variables}}` are quoted for. fish and csh read quotes differently (a
 * value would run), and `busybox` needs an applet name before `-c`.
 */
const POSIX_SHELLS = new Set(["sh", "bash", "dash", "ksh", "zsh", "mksh", "ash"]);

const positiveInt = z.number().int().positive();
const optionsSchema = z.object({
  projectDir: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  allowedSecrets: z.array(z.string()).readonly().optional(),
  maxOutputBytes: positiveInt.optional(),
  defaultTimeoutMs: positiveInt.max(2_147_483_647).optional(),
  killGraceMs: z.number().int().nonnegative().optional(),
  drainTimeoutMs: positiveInt.optional(),
  defaultTimeout: renamedOption("defaultTimeoutMs"),
  killGrace: renamedOption("killGraceMs"),
  drainTimeout: renamedOption("drainTimeoutMs"),
  shell: z
    .string()
    .refine((path) => POSIX_SHELLS.has(path.slice(path.lastIndexOf("/") + 1)), {
      message: `must be a POSIX shell whose quoting the templates follow: ${[...POSIX_SHELLS].join(", ")} (a path or a name)`,
    })
    .optional(),
  templateValueLimit: positiveInt.optional(),
  onRun: z.custom<(r: CommandRunReport) => void>((f) => typeof f === "function").optional(),
  envFile: z
    .custom<(e: HookEvent) => string | undefined>((f) => typeof f === "function")
    .optional(),
  dialect: z
    .custom<HookDialect>(
      (d) =>
        typeof d === "object" &&
        d !== null &&
        typeof (d as HookDialect).input === "function" &&
        typeof (d as HookDialect).read === "function",
    )
    .optional(),
});

/**
 * The executor behind `commandHookRegistration` (from `@a3s-lab/hooks-node/internal`): a shell
 * command (or argv) spawned per event, speaking Claude Code's protocol (JSON on stdin; exit
 * code 0 / 2 / other; JSON or text on stdout). `run` reports everything about one run.
 */
export class CommandHook {
  readonly definition: CommandHookDefinition;
  readonly name: string;
  /** Milliseconds. */
  readonly timeout: number;
  /** The core hook handler: run the command, answer or throw a HookError. */
  readonly handler: HookHandler;
  readonly #envFile: CommandHookOptions["envFile"];
  readonly #dialect: HookDialect;
  readonly #options: Required<
    Omit<CommandHookOptions, "onRun" | "env" | "cwd" | "envFile" | "allowedSecrets">
  > & {
    onRun?: (report: CommandRunReport) => void;
  };
  readonly #cwd: string;
  readonly #env: Record<string, string>;
  readonly #template: CommandTemplate;

  constructor(definition: CommandHookDefinition, options: CommandHookRunOptions = {}) {
    const checked = validate(commandHookDefinitionSchema, definition, "INVALID_CONFIG", [
      "definition",
    ]);
    if (!checked.success) throw checked.error;
    const opts = validate(optionsSchema, options, "INVALID_CONFIG", ["options"]);
    if (!opts.success) throw opts.error;
    if (definition.shell === "powershell") {
      throw new HookError(
        "INVALID_CONFIG",
        'definition.shell: "powershell" cannot run here: {{variables}} are quoted for POSIX shells only; use "bash"',
      );
    }
    this.definition = definition;
    const {
      env,
      cwd,
      onRun,
      envFile,
      projectDir: root,
      allowedSecrets,
      dialect,
      ...rest
    } = options;
    this.#envFile = envFile;
    this.#dialect = dialect ?? claudeCodeDialect;
    this.#options = { ...DEFAULTS, ...stripUndefined(rest), projectDir: root ?? process.cwd() };
    if (definition.shell === "bash") this.#options.shell = "bash";
    if (onRun) this.#options.onRun = onRun;
    const projectDir = resolve(this.#options.projectDir);
    this.#cwd = resolve(projectDir, definition.cwd ?? cwd ?? projectDir);
    const inherited = withoutHostSecrets(env ?? process.env, "command-hook", allowedSecrets);
    this.#env = {
      ...inherited,
      // bash runs /etc/bash.bashrc and ~/.bashrc for `bash -c` when its stdin is a socket (its
      // rshd rule) and it is a top-level shell (SHLVL below 2 once it has added one). Node's
      // stdin pipes are socketpairs, and a host started by CI, a service manager or a container
      // has no SHLVL: every hook would run the user's rc file first (slow, and what it prints
      // lands where the answer is read). SHLVL=1 is what a host started from a terminal has.
      ...(Number(inherited.SHLVL) >= 1 ? {} : { SHLVL: "1" }),
      A3S_PROJECT_DIR: projectDir,
      CLAUDE_PROJECT_DIR: projectDir,
      ...definition.env,
    };
    if (definition.env?.CLAUDE_ENV_FILE === undefined) delete this.#env.CLAUDE_ENV_FILE;
    if (definition.env?.A3S_ENV_FILE === undefined) delete this.#env.A3S_ENV_FILE;
    this.timeout =
      definition.timeout !== undefined
        ? Math.round(definition.timeout * 1000)
        : this.#options.defaultTimeoutMs;
    const display = describeCommand(definition);
    this.name = definition.name ?? (display.length > 80 ? `${display.slice(0, 79)}…` : display);

    this.#template = new CommandTemplate(definition);
    this.handler = async (event: HookEvent, ctx?: HookContext) => {
      const report = await this.#run(event, ctx?.signal, this.timeout + ENGINE_SLACK, ctx);
      if (report.error) throw report.error;
      return report.response;
    };
  }

  /**
   * Run the command for one event and report everything about it. Never rejects: a failure
   * is in `report.error`.
   */
  run(event: HookEvent, signal?: AbortSignal): Promise<CommandRunReport> {
    return this.#run(event, signal, this.timeout);
  }

  /** A complete core registration for this hook. */
  registration<N extends HookEventNameInput>(
    spec: CommandRegistrationSpec<N>,
  ): HookRegistration<N> {
    const d = this.definition;
    const registration: HookRegistration<HookEventNameInput> = {
      event: spec.event,
      handler: this.handler,
      timeoutMs: this.timeout,
      name: this.name,
    };
    if (spec.matcher !== undefined) registration.matcher = spec.matcher as never;
    applyCommonFields(registration, d, spec);
    if (spec.id !== undefined) registration.id = spec.id;
    return registration as unknown as HookRegistration<N>;
  }

  async #run(
    event: HookEvent,
    signal: AbortSignal | undefined,
    timeout: number,
    ctx?: HookContext,
  ): Promise<CommandRunReport> {
    const hookId = ctx?.hookId;
    let rendered: RenderedCommand;
    let input: string;
    try {
      rendered = this.#template.render(event, {
        cwd: this.#cwd,
        shell: this.#options.shell,
        valueLimit: this.#options.templateValueLimit,
      });
      input = serialise(this.#dialect, event, this.#cwd);
    } catch (error) {
      return this.#report(event, this.definition.command ?? "", [], undefined, error);
    }
    const { file, args, shown, notes } = rendered;
    let sessionId = event.sessionId.replaceAll("\0", "");
    if (sessionId.length > MAX_SESSION_ID_ENV) {
      // An environment string over 128 KiB stops the hook from starting at all (E2BIG).
      notes.push(`A3S_SESSION_ID: cut to ${MAX_SESSION_ID_ENV} of ${sessionId.length} characters`);
      sessionId = sessionId.slice(0, MAX_SESSION_ID_ENV);
    }
    const env: Record<string, string> = {
      ...this.#env,
      A3S_SESSION_ID: sessionId,
      A3S_HOOK_EVENT: event.eventType,
    };
    const envFile = this.#envFile?.(event);
    if (envFile !== undefined) {
      env.CLAUDE_ENV_FILE = envFile;
      env.A3S_ENV_FILE = envFile;
    }
    // W3C trace context, when the engine is traced (see `@a3s-lab/hooks-node/otel`).
    const traceparent = commandTraceparent(ctx);
    if (traceparent !== undefined) env.TRACEPARENT = traceparent;
    const result = await spawnCommand({
      file,
      args,
      cwd: this.#cwd,
      env,
      input,
      timeout,
      signal,
      maxOutputBytes: this.#options.maxOutputBytes,
      killGrace: this.#options.killGraceMs,
      drainTimeout: this.#options.drainTimeoutMs,
      // Fire and forget: nobody waits for the hook, so what it started may run on.
      keepChildren: this.definition.async === true || this.definition.asyncRewake === true,
    });
    if (result.error?.code === "ENOENT" && file === this.#options.shell) {
      if (existsSync(this.#cwd)) {
        const error = new HookError(
          "HANDLER_FAILED",
          `hook "${this.name}": the shell ${file} was not found${file.includes("/") ? "" : " on PATH"}; command hooks run under bash unless their definition or the shell option names another shell`,
          { cause: result.error, details: { errno: "ENOENT", shell: file } },
        );
        return this.#report(event, shown, notes, result, error);
      }
      notes.push(`the working directory ${this.#cwd} does not exist`);
    }
    if (result.truncated.stdout)
      notes.push(`stdout cut to ${this.#options.maxOutputBytes} of ${result.stdoutBytes} bytes`);
    if (result.truncated.stderr)
      notes.push(`stderr cut to ${this.#options.maxOutputBytes} of ${result.stderrBytes} bytes`);
    const answer = await spillOversizedOutput(
      this.#dialect.read(result, event, {
        timeout: this.timeout,
        maxOutputBytes: this.#options.maxOutputBytes,
      }),
      { eventId: event.eventId, hookId },
    );
    return this.#report(event, shown, notes, result, answer);
  }

  #report(
    event: HookEvent,
    command: string,
    notes: string[],
    result: SpawnResult | undefined,
    answer: unknown,
  ): CommandRunReport {
    const isError = answer instanceof Error || HookError.is(answer);
    const error = isError ? HookError.from(answer, "HANDLER_FAILED") : undefined;
    const report: CommandRunReport = {
      name: this.name,
      event: event.eventType,
      eventId: event.eventId,
      command,
      exitCode: result?.exitCode ?? null,
      signal: result?.signal ?? null,
      duration: result?.duration ?? 0,
      stdout: result?.stdout ?? "",
      stderr: result?.stderr ?? "",
      stdoutBytes: result?.stdoutBytes ?? 0,
      stderrBytes: result?.stderrBytes ?? 0,
      truncated: result?.truncated ?? { stdout: false, stderr: false },
      timedOut: result?.timedOut === true || HookError.is(error, "TIMEOUT"),
      aborted: result?.aborted ?? false,
      notes,
    };
    if (error) report.error = error;
    else report.response = answer as HookResponse;
    if (this.definition.statusMessage !== undefined)
      report.statusMessage = this.definition.statusMessage;
    try {
      this.#options.onRun?.(report);
    } catch {
      // A reporting callback must not change what the hook answered.
    }
    return report;
  }
}

function serialise(dialect: HookDialect, event: HookEvent, cwd: string): string {
  try {
    return JSON.stringify(dialect.input(event, { cwd }));
  } catch (error) {
    throw new HookError(
      "INVALID_EVENT",
      `the event cannot be written as JSON for the hook's stdin: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function stripUndefined<T extends object>(
  value: T,
): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as never;
}
