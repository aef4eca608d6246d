import { homedir } from "node:os";
import { resolve } from "node:path";
import { hookFingerprint } from "../settings/hook-fingerprint.js";
import type { HookSettings, SettingsHook } from "../settings/hook-settings.js";
import { disableHook, enableHook } from "../settings/hook-switches.js";
import { displayPath } from "../settings/settings-problem.js";
import { type CliIo, loadForCli, type SettingsArgs } from "./cli-context.js";
import { CliError } from "./cli-error.js";
import { describeHook } from "./format.js";

export interface HookSwitchArgs extends SettingsArgs {
  json?: boolean;
}

/**
 * The hook an id names: its whole id, or a prefix of at least four digits that names only one
 * (the same hook read twice, in two places, is two hooks with two ids).
 */
export function findHook(settings: HookSettings, id: string): SettingsHook {
  const wanted = id.trim().toLowerCase();
  if (!/^[0-9a-f]{4,12}$/.test(wanted)) {
    throw new CliError(
      "USAGE",
      `hook id: expected the 12 hex digits "a3s-hooks list" shows (or their first 4 or more), got ${JSON.stringify(id)}`,
      'run "a3s-hooks list" to see each hook\'s id',
    );
  }
  const found = settings.hooks.filter((h) => hookFingerprint(h).startsWith(wanted));
  if (found.length === 1) return found[0]!;
  throw new CliError(
    "USAGE",
    found.length === 0
      ? `no hook has the id ${wanted} (a hook that was edited has a new id)`
      : `${found.length} hooks have ids starting with ${wanted}`,
    found.length === 0
      ? 'run "a3s-hooks list" to see each hook\'s id'
      : "give more digits of the id",
  );
}

/** `a3s-hooks disable ID` and `a3s-hooks enable ID`: keep a hook from running, or undo that. */
export async function hookSwitchCommand(
  action: "disable" | "enable",
  id: string,
  args: HookSwitchArgs,
  io: CliIo,
): Promise<number> {
  const home = resolve(io.home ?? homedir());
  const { settings, where } = await loadForCli(args, io);
  if (action === "enable") {
    // The id alone is enough: the hook may have been edited or removed since.
    const hookId = findHookId(settings, id);
    const removed = await enableHook(hookId, { home });
    if (args.json) {
      io.stdout.write(`${JSON.stringify({ id: hookId, enabled: true, changed: removed })}\n`);
    } else {
      io.stdout.write(
        removed ? `Enabled hook ${hookId}; it runs again.\n` : `Hook ${hookId} was not disabled.\n`,
      );
    }
    return 0;
  }
  const hook = findHook(settings, id);
  if (hook.scope === "managed") {
    throw new CliError(
      "USAGE",
      `hook ${hookFingerprint(hook)} is in a managed policy file (${displayPath(hook.source, where)}); it cannot be turned off here`,
      "ask whoever manages this machine's policy",
    );
  }
  const { id: hookId } = await disableHook(hook, { home });
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify({ id: hookId, enabled: false, source: displayPath(hook.source, where), path: hook.path })}\n`,
    );
    return 0;
  }
  io.stdout.write(
    `Disabled hook ${hookId}:\n  ${describeHook(hook, where)}\nIts file is unchanged; "a3s-hooks enable ${hookId}" turns it back on.\n`,
  );
  return 0;
}

/** A whole id for `enable`: a hook's, or the id as given when it names none now. */
function findHookId(settings: HookSettings, id: string): string {
  try {
    return hookFingerprint(findHook(settings, id));
  } catch (error) {
    const wanted = id.trim().toLowerCase();
    if (/^[0-9a-f]{12}$/.test(wanted)) return wanted;
    throw error;
  }
}
