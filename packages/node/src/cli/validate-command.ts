import { displayPath } from "../settings/settings-problem.js";
import {
  type CliIo,
  hasErrors,
  loadForCli,
  problemLines,
  type SettingsArgs,
} from "./cli-context.js";
import { describeHook, hookJson } from "./format.js";
import { cliEffectiveHooks } from "./list-command.js";

export interface ValidateArgs extends SettingsArgs {
  json?: boolean;
}

/**
 * `a3s-hooks validate`: load every settings file, show what was found and every problem.
 * Exit 1 when there is an error (warnings alone are fine).
 */
export async function validateCommand(args: ValidateArgs, io: CliIo): Promise<number> {
  const { settings, where } = await loadForCli(args, io);
  const failed = hasErrors(settings);
  // Hooks that load but cannot run in this host, or that a policy stops: shown, not failed,
  // since another host (with its own model or servers) may run them.
  const notRunnable = (await cliEffectiveHooks(settings, io, where)).skipped.filter(
    (s) => s.reason === "unavailable" || s.reason === "policy",
  );
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          ok: !failed,
          files: settings.files
            .filter((f) => f.exists || f.scope === "explicit")
            .map((f) => ({ ...f, path: displayPath(f.path, where) })),
          hooks: settings.hooks.map((h) => hookJson(h, where)),
          options: settings.options,
          project: settings.project,
          problems: settings.problems.map((p) => ({ ...p, file: displayPath(p.file, where) })),
          notRunnable: notRunnable.map((n) => ({
            ...hookJson(n.hook, where),
            reason: n.reason,
            message: n.message,
          })),
        },
        null,
        2,
      )}\n`,
    );
    return failed ? 1 : 0;
  }
  const out: string[] = [];
  const files = settings.files.filter((f) => f.exists || f.scope === "explicit");
  if (files.length === 0) out.push("No settings files found.");
  else {
    out.push("Settings files:");
    for (const f of files) {
      const state = !f.exists ? "missing" : !f.loaded ? "unreadable" : `${f.hooks} hook(s)`;
      const trust = f.scope === "project" && !f.trusted ? ", not trusted" : "";
      out.push(`  ${displayPath(f.path, where)} (${f.scope}${trust}): ${state}`);
    }
  }
  if (settings.hooks.length > 0) {
    out.push("", "Hooks:");
    for (const h of settings.hooks) {
      out.push(`  ${describeHook(h, where)}${h.trusted ? "" : "  [not trusted]"}`);
    }
  }
  const problems = problemLines(settings, where);
  if (problems.length > 0) out.push("", "Problems:", ...problems.map((p) => `  ${p}`));
  if (notRunnable.length > 0) {
    out.push("", "Cannot run here:");
    for (const n of notRunnable)
      out.push(`  ${describeHook(n.hook, where)}`, `    ${n.reason}: ${n.message}`);
  }
  const errors = settings.problems.filter((p) => p.severity === "error").length;
  out.push(
    "",
    failed
      ? `${errors} error(s): the hooks and files they concern do not load.`
      : `OK: ${settings.hooks.length} hook(s), ${settings.problems.length} warning(s).`,
  );
  io.stdout.write(`${out.join("\n")}\n`);
  return failed ? 1 : 0;
}
