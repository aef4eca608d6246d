import { describeDefinition } from "../handlers/settings-handler.js";
import { hookFingerprint } from "../settings/hook-fingerprint.js";
import type { SettingsHook } from "../settings/hook-settings.js";
import { displayPath } from "../settings/settings-problem.js";

/** Colours a word by what it means for the agent; the identity when colour is off. */
export type Paint = (text: string, tone: "block" | "continue") => string;

const TONES = { block: 31, continue: 32 } as const;

/**
 * Colour for a terminal only: stdout is a TTY and `NO_COLOR` is unset or empty (no-color.org);
 * block is red, continue green.
 */
export function painter(io: {
  stdout: { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}): Paint {
  if (io.stdout.isTTY !== true || (io.env.NO_COLOR ?? "") !== "") return (text) => text;
  return (text, tone) => `\u001b[${TONES[tone]}m${text}\u001b[39m`;
}

/** Where paths are shown relative to. */
export interface Where {
  cwd: string;
  home: string;
}

/** A short excerpt of a process's output: the first lines, clipped. */
export function excerpt(text: string, maxLines = 5, maxChars = 400): string {
  const trimmed = text.trimEnd();
  if (trimmed === "") return "";
  const lines = trimmed.split("\n");
  let out = lines.slice(0, maxLines).join("\n");
  if (out.length > maxChars) out = `${out.slice(0, maxChars)}…`;
  else if (lines.length > maxLines) out += `\n… (${lines.length - maxLines} more lines)`;
  return out;
}

/** Indent every line of a block. */
export function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((l) => by + l)
    .join("\n");
}

/** `PreToolUse  Bash  ./check.sh` plus where it is defined. */
export function describeHook(hook: SettingsHook, where: Where): string {
  // Another agent's hook shows its own event and matcher, in that agent's words.
  const origin = hook.origin ? `  {${hook.origin.format} ${hook.origin.event}}` : "";
  const matcher =
    hook.origin?.matcher !== undefined
      ? hook.origin.matcher
      : hook.matcher === undefined
        ? "*"
        : typeof hook.matcher === "string"
          ? hook.matcher
          : JSON.stringify(hook.matcher);
  return `${hook.event} [${matcher}] ${describeDefinition(hook.definition)}  (${displayPath(hook.source, where)} ${hook.path})${origin}`;
}

/** The JSON form of a hook for `--json` output. */
export function hookJson(hook: SettingsHook, where: Where): Record<string, unknown> {
  return {
    id: hookFingerprint(hook),
    event: hook.event,
    matcher: hook.matcher ?? "*",
    type: hook.type,
    command: describeDefinition(hook.definition),
    name: hook.name,
    source: displayPath(hook.source, where),
    path: hook.path,
    scope: hook.scope,
    ...(hook.plugin ? { plugin: hook.plugin.id } : {}),
    ...(hook.origin ? { format: hook.origin.format, origin: hook.origin } : {}),
    trusted: hook.trusted,
    ...(hook.disabled ? { disabled: true } : {}),
    definition: hook.definition,
  };
}
