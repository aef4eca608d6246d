import { createReadStream } from "node:fs";
import { resolve } from "node:path";
import { HookEngine, type HookEvent, type HookResult } from "@a3s-lab/hooks-core";
import { compileMatcher, describeValue, matcherSubject } from "@a3s-lab/hooks-core/internal";
import type { CommandRunReport } from "../handlers/command/command-hook.js";
import { applyHookSettings, engineOptionsFromSettings } from "../settings/apply-hook-settings.js";
import type { SettingsHook } from "../settings/hook-settings.js";
import { linearRegex } from "../support/linear-regex.js";
import {
  type CliIo,
  cliHookOptions,
  hasErrors,
  loadForCli,
  problemLines,
  readAll,
  type SettingsArgs,
} from "./cli-context.js";
import { CliError } from "./cli-error.js";
import { painter } from "./format.js";
import { buildTestEvent, eventNameArgument } from "./test-event.js";
import { type HookRun, humanResult, jsonResult, type NotRun } from "./test-report.js";

export interface TestArgs extends SettingsArgs {
  input?: string;
  tool?: string;
  args?: string;
  json?: boolean;
}

const MAX_INPUT = 16 * 1024 * 1024;
/** How long to wait for the reports of hooks the engine already gave up on (timeouts). */
const REPORT_GRACE = 5000;

function parseObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      "USAGE",
      `${what}: not valid JSON (${(error as Error).message})`,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CliError("USAGE", `${what}: expected a JSON object, got ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
}

async function readInput(input: string, io: CliIo): Promise<Record<string, unknown>> {
  if (input === "-") return parseObject(await readAll(io.stdin, MAX_INPUT, "stdin"), "--input -");
  const path = resolve(io.cwd, input);
  let text: string;
  try {
    // A stream, so the cap holds while reading: a huge file or /dev/zero stops at MAX_INPUT bytes.
    text = await readAll(createReadStream(path), MAX_INPUT, `--input: ${input}`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      "USAGE",
      `--input: cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  return parseObject(text, `--input ${input}`);
}

/** True when an `--input` object names its tool itself (`tool`, or Claude Code's `tool_name`). */
function inputNamesTool(input: Record<string, unknown> | undefined): boolean {
  return input !== undefined && (input.tool !== undefined || input.tool_name !== undefined);
}

function matcherText(hook: SettingsHook): string {
  return typeof hook.matcher === "string" ? hook.matcher : JSON.stringify(hook.matcher);
}

/** Why a registered hook took no part: its matcher, or (when the matcher took the event) its `if`. */
function notMatchedMessage(hook: SettingsHook, event: HookEvent): string {
  if (hook.if !== undefined) {
    const matcher = compileMatcher(hook.event, hook.matcher, [hook.path, "matcher"], {
      regex: linearRegex,
    });
    if (matcher === null || matcher(event)) {
      return `if ${JSON.stringify(hook.if)} does not match this call`;
    }
  }
  return `matcher ${JSON.stringify(matcherText(hook))} does not match ${JSON.stringify(matcherSubject(event) ?? "")}`;
}

/**
 * `a3s-hooks test <Event>`: fire one event through the hooks the settings define and show
 * what each did, why the others did not run, and the merged result.
 * Exit 0 on continue, 2 on block, 1 on a usage or configuration error.
 */
export async function testCommand(eventArg: string, args: TestArgs, io: CliIo): Promise<number> {
  const name = eventNameArgument(eventArg);
  const input = args.input !== undefined ? await readInput(args.input, io) : undefined;
  const toolArgs = args.args !== undefined ? parseObject(args.args, "--args") : undefined;
  // Without a tool the arguments would silently go to the default Bash call.
  if (toolArgs !== undefined && args.tool === undefined && !inputNamesTool(input)) {
    throw new CliError(
      "USAGE",
      "--args needs --tool: the name of the tool the arguments are for",
      `for example: a3s-hooks test ${name} --tool Bash --args '{"command":"ls"}'`,
    );
  }
  const event = buildTestEvent(name, {
    ...(input !== undefined ? { input } : {}),
    ...(args.tool !== undefined ? { tool: args.tool } : {}),
    ...(toolArgs !== undefined ? { args: toolArgs } : {}),
  });
  const { settings, where } = await loadForCli(args, io);

  const reports = new Map<SettingsHook, CommandRunReport>();
  let expected = Number.POSITIVE_INFINITY;
  let allIn: () => void = () => {};
  const arrived = new Promise<void>((r) => {
    allIn = r;
  });
  const engine = new HookEngine(engineOptionsFromSettings(settings));
  // prompt and agent hooks ask the model the environment names (A3S_HOOKS_MODEL, …).
  const { options, close } = cliHookOptions(settings, io, where);
  const rewakes = new Map<SettingsHook, string>();
  const handle = applyHookSettings(engine, settings, {
    ...options,
    onRun: (report, hook) => {
      reports.set(hook, report);
      if (reports.size >= expected) allIn();
    },
    onAsyncRewake: ({ hook, reason }) => rewakes.set(hook, reason),
  });
  let result: HookResult;
  try {
    result = await engine.fire(event);
    // Timed-out hooks answer the engine at once but report once their process group is gone.
    const spawned = result.outcomes.filter((o) => o.status !== "cancelled").length;
    expected = spawned;
    if (reports.size < spawned) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        arrived,
        new Promise<void>((r) => {
          timer = setTimeout(r, REPORT_GRACE);
        }),
      ]);
      clearTimeout(timer);
    }
    // An asyncRewake hook delivers its block just after its report.
    await new Promise((r) => setImmediate(r));
  } finally {
    handle.unregister();
    await close();
  }

  const hookOf = new Map(handle.applied.map((a) => [a.id, a.hook]));
  const runs: HookRun[] = result.outcomes.map((outcome) => {
    const hook = hookOf.get(outcome.hookId)!;
    const report = reports.get(hook);
    const run: HookRun = report ? { hook, outcome, report } : { hook, outcome };
    const rewake = rewakes.get(hook);
    if (rewake !== undefined) run.rewake = rewake;
    return run;
  });
  const ran = new Set(runs.filter((r) => r.outcome.status !== "cancelled").map((r) => r.hook));
  const notRun: NotRun[] = [];
  for (const s of handle.skipped) {
    if (s.hook.event === event.eventType) notRun.push(s);
  }
  for (const a of handle.applied) {
    if (a.hook.event !== event.eventType || ran.has(a.hook)) continue;
    const cancelled = runs.some((r) => r.hook === a.hook);
    notRun.push(
      cancelled
        ? {
            hook: a.hook,
            reason: "cancelled",
            message: "an earlier hook blocked or skipped first (sequential mode)",
          }
        : {
            hook: a.hook,
            reason: "matcher",
            message: notMatchedMessage(a.hook, event),
          },
    );
  }
  const otherEvents = settings.hooks.filter((h) => h.event !== event.eventType).length;
  const configError = hasErrors(settings);
  const code = configError ? 1 : result.action === "block" ? 2 : 0;

  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(jsonResult(event, result, runs, notRun, settings.problems.length ? problemLines(settings, where) : [], where), null, 2)}\n`,
    );
  } else {
    const paint = painter(io);
    io.stdout.write(`${humanResult(event, result, runs, notRun, otherEvents, where, paint)}\n`);
    const problems = problemLines(settings, where);
    if (problems.length > 0) {
      io.stderr.write(
        `${["Problems in the settings:", ...problems.map((p) => `  ${p}`)].join("\n")}\n`,
      );
    }
  }
  return code;
}
