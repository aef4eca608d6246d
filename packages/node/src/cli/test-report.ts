import type { HookEvent, HookOutcome, HookResult } from "@a3s-lab/hooks-core";
import { matcherSubject } from "@a3s-lab/hooks-core/internal";
import type { CommandRunReport } from "../handlers/command/command-hook.js";
import type { SkipReason } from "../settings/apply-hook-settings.js";
import type { SettingsHook } from "../settings/hook-settings.js";
import { describeHook, excerpt, hookJson, indent, type Paint, type Where } from "./format.js";

/** One hook that ran for the fired event. */
export interface HookRun {
  hook: SettingsHook;
  outcome: HookOutcome;
  report?: CommandRunReport;
  /** The block an `asyncRewake` hook delivered after the firing: what would wake the model. */
  rewake?: string;
}

/** One hook of the fired event that did not run, and why. */
export interface NotRun {
  hook: SettingsHook;
  reason: SkipReason | "matcher" | "cancelled";
  message: string;
}

function runJson(run: HookRun, where: Where): Record<string, unknown> {
  const { hook, outcome, report } = run;
  return {
    ...hookJson(hook, where),
    status: outcome.status,
    action: outcome.action,
    reason: outcome.reason ?? null,
    error: outcome.error ?? null,
    exitCode: report?.exitCode ?? null,
    signal: report?.signal ?? null,
    duration: Math.round(report?.duration ?? outcome.duration),
    stdout: report ? excerpt(report.stdout, 20, 2000) : "",
    stderr: report ? excerpt(report.stderr, 20, 2000) : "",
    notes: report?.notes ?? [],
    statusMessage: report?.statusMessage ?? null,
    asyncRewake: run.rewake ?? null,
  };
}

/** What `a3s-hooks test --json` prints. */
export function jsonResult(
  event: HookEvent,
  result: HookResult,
  runs: HookRun[],
  notRun: NotRun[],
  problems: string[],
  where: Where,
): Record<string, unknown> {
  return {
    action: result.action,
    reason: result.reason ?? null,
    eventName: event.eventType,
    event: result.event,
    modified: result.modified,
    permission: result.permission ?? null,
    permissionReason: result.permissionReason ?? null,
    stopTurn: result.stopTurn ?? null,
    additionalContext: result.additionalContext ?? null,
    feedback: result.feedback ?? null,
    systemMessages: result.systemMessages,
    retryDelay: result.retryDelay ?? null,
    warnings: result.warnings,
    hooks: runs.map((r) => runJson(r, where)),
    notRun: notRun.map((n) => ({
      ...hookJson(n.hook, where),
      reason: n.reason,
      message: n.message,
    })),
    problems,
  };
}

/** What `a3s-hooks test` prints. */
export function humanResult(
  event: HookEvent,
  result: HookResult,
  runs: HookRun[],
  notRun: NotRun[],
  otherEvents: number,
  where: Where,
  paint: Paint = (text) => text,
): string {
  const subject = matcherSubject(event);
  const out = [`Fired ${event.eventType}${subject !== undefined ? ` (${subject})` : ""}.`];
  if (runs.length === 0 && notRun.length === 0) out.push("No hooks are configured for this event.");
  for (const run of runs) {
    const { hook, outcome, report } = run;
    if (outcome.status === "cancelled") continue;
    const facts = [
      outcome.status === "ok" ? paintAction(outcome.action, paint) : outcome.status,
      report?.exitCode !== undefined && report.exitCode !== null ? `exit ${report.exitCode}` : "",
      report?.signal ? `killed by ${report.signal}` : "",
      `${Math.round(report?.duration ?? outcome.duration)} ms`,
    ].filter(Boolean);
    out.push("", `${describeHook(hook, where)}`);
    if (report?.statusMessage) out.push(`  status: ${report.statusMessage}`);
    out.push(`  ${facts.join(", ")}`);
    if (outcome.error) out.push(`  error: ${outcome.error.message}`);
    else if (outcome.reason) out.push(`  reason: ${outcome.reason}`);
    if (report) {
      const stdout = excerpt(report.stdout);
      const stderr = excerpt(report.stderr);
      if (stdout) out.push("  stdout:", indent(stdout, "    | "));
      if (stderr) out.push("  stderr:", indent(stderr, "    | "));
      for (const note of report.notes) out.push(`  note: ${note}`);
    }
    if (run.rewake !== undefined)
      out.push(`  asyncRewake: would wake the model with: ${run.rewake}`);
  }
  if (notRun.length > 0) {
    out.push("", "Did not run:");
    for (const n of notRun)
      out.push(`  ${describeHook(n.hook, where)}`, `    ${n.reason}: ${n.message}`);
  }
  if (otherEvents > 0) out.push("", `(${otherEvents} hook(s) are configured for other events.)`);
  out.push("", resultLine(result, paint));
  if (result.modified)
    out.push(`Modified event: ${JSON.stringify(modifiedPart(event, result.event))}`);
  if (result.permission) {
    out.push(
      `Permission: ${result.permission}${result.permissionReason ? ` (${result.permissionReason})` : ""}`,
    );
  }
  if (result.feedback) out.push("Feedback for the model:", indent(result.feedback, "  | "));
  if (result.additionalContext)
    out.push("Additional context:", indent(result.additionalContext, "  | "));
  for (const m of result.systemMessages) out.push(`System message: ${m}`);
  for (const w of result.warnings) out.push(`Warning: ${w}`);
  return out.join("\n");
}

function paintAction(action: string, paint: Paint): string {
  return action === "block" || action === "continue" ? paint(action, action) : action;
}

function resultLine(result: HookResult, paint: Paint): string {
  if (result.stopTurn) {
    const why = result.stopTurn.reason ? `: ${result.stopTurn.reason}` : "";
    return `Result: the turn stops (continue: false; shown to the user, not the model)${why}`;
  }
  if (result.action === "block")
    return `Result: ${paint("block", "block")}: ${result.reason ?? ""}`;
  if (result.action === "retry") return `Result: retry after ${result.retryDelay ?? 0} ms`;
  return `Result: ${paint("continue", "continue")}`;
}

/** The top-level fields a patch changed, with their new values. */
function modifiedPart(before: HookEvent, after: HookEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(value) !== JSON.stringify((before as Record<string, unknown>)[key]))
      out[key] = value;
  }
  return out;
}
