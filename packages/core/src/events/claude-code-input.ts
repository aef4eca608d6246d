/**
 * The `metadata` key under which a host that reads Claude Code's hook input (`a3s-hooks test
 * --input`, the Claude Agent SDK bridge) keeps the input fields the event has no field of its
 * own for, under their own names (`prompt_id`, `effort`, `permission_suggestions`, a
 * `tool_response` in the tool's own shape, fields added after this release, …). Command hooks
 * get each of them back on stdin as it came: Claude Code's input is never refused for a field
 * we do not model, and never loses one.
 */
export const CLAUDE_CODE_INPUT_KEY = "claudeCodeInput";

/** Fields every Claude Code input has that an A3S event carries in its own way. */
const CARRIED = new Set([
  "hook_event_name",
  "session_id",
  "cwd",
  "transcript_path",
  "permission_mode",
  "tool_name",
  "tool_input",
  "tool_use_id",
]);

/**
 * The fields of a Claude Code hook input to keep under {@link CLAUDE_CODE_INPUT_KEY}: all but
 * the ones every event carries in its own way and those in `used` (read into the event's own
 * fields under the same meaning). Undefined when nothing is left.
 */
export function claudeCodeExtraInput(
  input: Record<string, unknown>,
  used: ReadonlySet<string> = new Set(),
): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(input)) {
    if (CARRIED.has(key) || used.has(key) || value === undefined) continue;
    (extra ??= {})[key] = value;
  }
  return extra;
}
