import {
  CONTINUE,
  HookError,
  type HookEvent,
  type HookEventName,
  type HookResponse,
} from "@a3s-lab/hooks-core";
import { clipText, describeValue, formatPath } from "@a3s-lab/hooks-core/internal";
import type { CommandHookDefinition } from "../../handlers/command/command-definition.js";
import { CommandTemplate } from "../../handlers/command/command-template.js";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import { firstLine, interpretResult, type SpawnResult } from "../../handlers/interpret-result.js";
import type { HookFormatName, HookOrigin, SettingsHook } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import type { PathKey, SettingsProblem } from "../settings-problem.js";

/**
 * Another agent's hook-file format: where its files are, how to read one, and how its scripts
 * are spoken to and understood. One record per agent, listed once in `HOOK_FORMATS`.
 */
export interface HookFormat {
  name: HookFormatName;
  /** The agent's name, for people: `Cursor`, `Gemini CLI`. */
  title: string;
  /** Where the agent looks, relative to the project and to the home directory, in that order of precedence. */
  files: { project: readonly string[]; user: readonly string[] };
  /** The agent's event names and what each is here. */
  events: Readonly<Record<string, FormatEvent>>;
  /** True when a path names one of this format's files (`.cursor/hooks.json`). */
  matchesPath(path: string): boolean;
  /**
   * Parse one file's text when it is not JSON (Codex's `config.toml`), or return undefined to
   * read it as JSON. A failure's message says what the file is and what is wrong; `line` and
   * `column` say where.
   */
  parse?(text: string, path: string): FormatParseResult | undefined;
  /** Read one file (already parsed): its hooks and every problem, with the key path. */
  read(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock;
  /** The stdin and the answer reading of a hook on one of the agent's events. */
  dialect(origin: HookOrigin): HookDialect;
  /**
   * The hook's own matcher, tested as the agent tests it (against the agent's tool names), or
   * undefined when it has none.
   */
  matcher?(origin: HookOrigin): ((event: HookEvent) => boolean) | undefined;
}

/** A file's text parsed by its format: the value, or why and where it is invalid. */
export type FormatParseResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number };

/** One of an agent's events, as it runs here. */
export interface FormatEvent {
  /** Our event. */
  event: HookEventName;
  /** Our matcher the agent's event implies (Cursor's `beforeShellExecution`: `Bash`). */
  matcher?: string;
}

/** What an answer reader does with each outcome of a process that exited 0 or 2. */
export interface AnswerRules {
  /** The agent's name, for messages. */
  agent: string;
  /**
   * Exit code 2: `stderr` (trimmed, clipped) as the agent reads it. Absent: exit 2 is a failure
   * like any other code (the agent gives it no meaning).
   */
  exit2?(stderr: string): HookResponse;
  /** Exit code 0 with a JSON object on stdout. */
  json(answer: Record<string, unknown>): HookResponse | HookError;
}

/**
 * Read a finished process by an agent's rules. A failure to start, a timeout, a cancellation
 * and any exit code but 0 and 2 are failures as for every command hook (`interpretResult`);
 * exit 2 and a JSON object on stdout go to the rules. Plain text on stdout is refused: these
 * agents read stdout as JSON only.
 */
export function readAnswer(
  result: SpawnResult,
  event: HookEvent,
  limits: { timeout: number; maxOutputBytes: number },
  rules: AnswerRules,
): HookResponse | HookError {
  const failed =
    result.error !== undefined ||
    result.timedOut ||
    result.aborted ||
    (result.exitCode !== 0 && (result.exitCode !== 2 || rules.exit2 === undefined));
  if (failed || (result.exitCode === 0 && result.truncated.stdout)) {
    return interpretResult(result, event, limits);
  }
  if (result.exitCode === 2 && rules.exit2) return rules.exit2(clipText(result.stderr.trim()));
  const text = result.stdout.trim();
  if (text === "") return CONTINUE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return new HookError(
      "INVALID_OUTPUT",
      `stdout is not JSON, and ${rules.agent} reads only a JSON object there: ${firstLine(text, 120)}`,
      { cause: error },
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return new HookError(
      "INVALID_OUTPUT",
      `stdout: expected a JSON object, got ${describeValue(value)}`,
    );
  }
  return rules.json(value as Record<string, unknown>);
}

/** A field of an answer that must be a string when present, or the error naming it. */
export function stringField(
  answer: Record<string, unknown>,
  key: string,
): string | undefined | HookError {
  const value = answer[key];
  if (value === undefined || typeof value === "string") return value;
  return new HookError("INVALID_OUTPUT", `${key}: expected a string, got ${describeValue(value)}`);
}

/** One command entry of another agent's file, as the agent writes it. */
export interface CommandEntry {
  command: unknown;
  /** Seconds, already converted from the agent's unit. */
  timeoutSeconds?: number;
  name?: string;
  failBehavior?: "continue" | "block";
  /** Where it runs, relative to the project. */
  cwd?: string;
  /** Variables set for it. */
  env?: Record<string, string>;
}

/** Collects hooks and problems while one file is read. */
export class FormatReader {
  readonly out: ParsedHooksBlock = { hooks: [], options: {}, problems: [] };
  constructor(
    readonly format: HookFormatName,
    readonly ctx: HooksBlockContext,
  ) {}

  problem(severity: SettingsProblem["severity"], path: PathKey[], message: string): void {
    this.out.problems.push({ file: this.ctx.file, path: formatPath(path), message, severity });
  }

  /** A file's `version`, where the agent numbers them: only 1 exists. */
  version(doc: Record<string, unknown>): void {
    if (doc.version !== undefined && doc.version !== 1) {
      this.problem(
        "warning",
        ["version"],
        `expected 1, got ${describeValue(doc.version)}; read as version 1`,
      );
    }
  }

  /**
   * The file's `hooks` object, event by event: each event the format runs, with its list. An
   * event it does not run is a warning (its hooks do not load); a list that is not an array, an
   * error.
   */
  events<E>(
    hooks: unknown,
    events: Readonly<Record<string, E>>,
    agent: string,
    what: string,
  ): [name: string, spec: E, list: unknown[]][] {
    if (!isRecord(hooks)) {
      this.problem(
        "error",
        ["hooks"],
        `expected an object mapping ${agent} event names to ${what}, got ${describeValue(hooks)}`,
      );
      return [];
    }
    const out: [string, E, unknown[]][] = [];
    for (const [name, list] of Object.entries(hooks)) {
      if (!Object.hasOwn(events, name)) {
        this.problem(
          "warning",
          ["hooks", name],
          `"${name}" is not a ${agent} event this engine runs (${Object.keys(events).join(", ")}); its hooks are ignored`,
        );
      } else if (!Array.isArray(list)) {
        this.problem(
          "error",
          ["hooks", name],
          `expected an array of ${what}, got ${describeValue(list)}`,
        );
      } else out.push([name, events[name]!, list]);
    }
    return out;
  }

  /**
   * A timeout field: a positive number (in the agent's `unit`), undefined when absent, or
   * false after reporting an error (the hook does not load).
   */
  timeout(
    entry: Record<string, unknown>,
    key: string,
    path: PathKey[],
    unit: string,
  ): number | undefined | false {
    const value = entry[key];
    if (value === undefined) return undefined;
    if (typeof value === "number" && value > 0) return value;
    this.problem(
      "error",
      [...path, key],
      `expected a positive number of ${unit}, got ${describeValue(value)} (this hook does not load)`,
    );
    return false;
  }

  /** A warning for each field of `entry` the format does not know (they are ignored). */
  unknownFields(entry: Record<string, unknown>, path: PathKey[], known: ReadonlySet<string>): void {
    for (const key of Object.keys(entry)) {
      if (!known.has(key))
        this.problem("warning", [...path, key], `unknown field "${key}" (ignored)`);
    }
  }

  /**
   * Refuse the whole file when any of it was an error: a half-read file could run a guard's
   * neighbours without the guard. Warnings leave the rest loaded.
   */
  refuseOnError(): void {
    const errors = this.out.problems.filter((p) => p.severity === "error").length;
    if (errors > 0 && this.out.hooks.length > 0) {
      this.out.hooks = [];
      this.problem(
        "error",
        ["hooks"],
        `${errors === 1 ? "1 error" : `${errors} errors`} in this file: none of its hooks load`,
      );
    }
  }

  /** Add one command hook, or report why it does not load. */
  command(
    path: PathKey[],
    entry: CommandEntry,
    origin: HookOrigin,
    event: FormatEvent,
  ): SettingsHook | undefined {
    if (typeof entry.command !== "string" || entry.command.trim() === "") {
      this.problem(
        "error",
        [...path, "command"],
        `expected a non-empty command string, got ${describeValue(entry.command)} (this hook does not load)`,
      );
      return undefined;
    }
    const definition: Record<string, unknown> = { command: entry.command };
    if (entry.timeoutSeconds !== undefined) definition.timeout = entry.timeoutSeconds;
    if (entry.name !== undefined) definition.name = entry.name;
    if (entry.failBehavior !== undefined) definition.failBehavior = entry.failBehavior;
    if (entry.cwd !== undefined) definition.cwd = entry.cwd;
    if (entry.env !== undefined) definition.env = entry.env;
    try {
      new CommandTemplate(definition as unknown as CommandHookDefinition);
    } catch (error) {
      this.problem("error", [...path, "command"], HookError.from(error).message);
      return undefined;
    }
    const where = formatPath(path);
    const display = entry.name ?? entry.command;
    const hook: SettingsHook = {
      id: `${this.ctx.file}#${where}`,
      event: event.event,
      type: "command",
      definition: definition as unknown as CommandHookDefinition,
      name: (display.length > 80 ? `${display.slice(0, 79)}…` : display).slice(0, 256),
      source: this.ctx.file,
      path: where,
      scope: this.ctx.scope,
      trusted: this.ctx.trusted,
      origin,
    };
    if (event.matcher !== undefined) hook.matcher = event.matcher;
    this.out.hooks.push(hook);
    return hook;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
